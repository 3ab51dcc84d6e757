import { parseOrderBy, sortSignature } from './parse-order-by';

describe('parseOrderBy', () => {
  it('parses keys with the four directions and the default', () => {
    expect(parseOrderBy('name.lastName[DescNullsLast],createdAt,position[AscNullsLast],x[DescNullsFirst]')).toEqual([
      { path: ['name', 'lastName'], descending: true, nullsFirst: false },
      { path: ['createdAt'], descending: false, nullsFirst: true },
      { path: ['position'], descending: false, nullsFirst: false },
      { path: ['x'], descending: true, nullsFirst: true },
    ]);
  });

  it.each([
    ['', /empty/],
    ['name[Up]', /direction 'Up' for 'name'/],
    ['name[', /at key 1/],
    ['a,,b', /at key 2/],
    ['a.b.c.d.e.f', /at key 1/],
    ['a,a[DescNullsLast]', /'a' is named twice/],
  ])('rejects %j', (input, message) => {
    expect(() => parseOrderBy(input)).toThrow(message);
  });

  it('signs a sort canonically', () => {
    expect(sortSignature(parseOrderBy('a[DescNullsLast],b'))).toBe('a:DL,b:AF');
  });
});
