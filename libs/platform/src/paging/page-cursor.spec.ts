import { pageCursor, sourcedPageCursor } from './page-cursor.js';

const token = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const id = '6f1c9a52-3a8e-4d52-9a55-0f7f3b1f8c11';
const timestamp = '2026-11-22T10:00:00.123Z';

describe('page cursors of a list ordered by (time, id)', () => {
  it('round-trip a position as an opaque, URL-safe token', () => {
    const cursor = pageCursor.encode({ timestamp, id });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(pageCursor.decode(cursor)).toEqual({ timestamp, id });
  });

  it('read the token the lists have always sent: base64url of `<timestamp>|<id>`', () => {
    expect(pageCursor.encode({ timestamp, id })).toBe(token(`${timestamp}|${id}`));
    expect(pageCursor.decode(token(`${timestamp}|${id.toUpperCase()}`))).toEqual({ timestamp, id });
  });

  it.each([
    ['nothing', ''],
    ['garbage', 'garbage'],
    ['a bad id', token(`${timestamp}|not-a-uuid`)],
    ['words in place of a time', token(`x'; drop table letters;--|${id}`)],
    ['a time not written by toISOString', token(`2026-11-22 10:00:00|${id}`)],
    ['an impossible time', token(`2026-13-45T10:00:00.123Z|${id}`)],
    ['a third key', token(`${timestamp}|letters|${id}`)],
  ])('refuse %s', (_label, cursor) => {
    expect(pageCursor.decode(cursor)).toBeNull();
  });
});

describe('page cursors of a list merged from several sources', () => {
  const timeline = sourcedPageCursor(['vault-media', 'letters', 'court-journal'] as const);
  const position = { timestamp: '2026-11-24T10:00:00.123Z', source: 'letters' as const, id: '7f1c9a52-3b1e-4c6e-9d3f-0a1b2c3d4e5f' };

  it('round-trip a position as base64url of `<timestamp>|<source>|<id>`', () => {
    expect(timeline.encode(position)).toBe(token(`${position.timestamp}|letters|${position.id}`));
    expect(timeline.decode(timeline.encode(position))).toEqual(position);
  });

  it.each([
    ['not base64 of anything useful', 'bm9wZQ'],
    ['the two-part cursor of an unmerged list', token(`${position.timestamp}|${position.id}`)],
    ['an unknown source', token(`${position.timestamp}|billing|${position.id}`)],
    ['a bad time', token(`yesterday|letters|${position.id}`)],
    ['a bad id', token(`${position.timestamp}|letters|1 or 1=1`)],
  ])('refuse %s', (_label, cursor) => {
    expect(timeline.decode(cursor)).toBeNull();
  });
});
