import { decodeCursor, encodeCursor } from './page-cursor.js';

describe('list cursors', () => {
  it('round-trips a position', () => {
    const position = { createdAt: '2026-11-22T10:00:00.123Z', id: '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11' };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it.each(['', 'garbage', Buffer.from('2026-11-22T10:00:00.123Z|not-a-uuid').toString('base64url'), Buffer.from("x'; drop table letters;--|6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11").toString('base64url')])(
    'refuses %j as VALIDATION_FAILED',
    (cursor) => {
      expect(() => decodeCursor(cursor)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    },
  );
});
