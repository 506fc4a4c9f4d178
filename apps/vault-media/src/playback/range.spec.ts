import { parseRange } from './range.js';

describe('HTTP Range', () => {
  it.each([
    [undefined, 1000, { kind: 'full' }],
    ['bytes=0-', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['bytes=0-99', 1000, { kind: 'partial', start: 0, end: 99 }],
    ['bytes=500-', 1000, { kind: 'partial', start: 500, end: 999 }],
    ['bytes=900-5000', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-100', 1000, { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', 1000, { kind: 'partial', start: 0, end: 999 }],
    ['bytes=1000-', 1000, { kind: 'unsatisfiable' }],
    ['bytes=-0', 1000, { kind: 'unsatisfiable' }],
    ['bytes=10-5', 1000, { kind: 'full' }],
    ['bytes=0-1,5-9', 1000, { kind: 'full' }],
    ['items=0-5', 1000, { kind: 'full' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
  ])('%s of %d bytes -> %j', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
