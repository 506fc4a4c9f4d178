import { decodeCursor, encodeCursor } from './page-cursor.js';

describe('timeline page cursor', () => {
  const position = { timestamp: '2026-11-24T10:00:00.123Z', source: 'letters' as const, id: '7f1c9a52-3b1e-4c6e-9d3f-0a1b2c3d4e5f' };

  it('round-trips a position', () => {
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
  });

  it.each([
    ['not base64 of anything useful', 'bm9wZQ'],
    ['the old two-part cursor', Buffer.from(`${position.timestamp}|${position.id}`).toString('base64url')],
    ['an unknown source', Buffer.from(`${position.timestamp}|billing|${position.id}`).toString('base64url')],
    ['a bad time', Buffer.from(`yesterday|letters|${position.id}`).toString('base64url')],
    ['a bad id', Buffer.from(`${position.timestamp}|letters|1 or 1=1`).toString('base64url')],
  ])('refuses %s', (_label, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });
});
