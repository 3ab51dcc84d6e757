import { parseRange } from './byte-ranges';

describe('parseRange', () => {
  it.each([
    [undefined, 100, { kind: 'whole' }],
    ['bytes=0-9', 100, { kind: 'range', range: { start: 0, end: 9 } }],
    ['bytes=90-', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=90-500', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-10', 100, { kind: 'range', range: { start: 90, end: 99 } }],
    ['bytes=-500', 100, { kind: 'range', range: { start: 0, end: 99 } }],
    ['bytes=100-', 100, { kind: 'unsatisfiable' }],
    ['bytes=-0', 100, { kind: 'unsatisfiable' }],
    ['bytes=0-', 0, { kind: 'unsatisfiable' }],
    ['bytes=0-1,5-6', 100, { kind: 'whole' }],
    ['bytes=9-2', 100, { kind: 'whole' }],
    ['items=0-1', 100, { kind: 'whole' }],
    ['bytes=-', 100, { kind: 'whole' }],
  ])('%s of %i bytes', (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});
