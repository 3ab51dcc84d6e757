import { inlineValues, jsonRows, rowsSql } from './sql';

describe('inlineValues (COPY takes no bound parameters)', () => {
  it('writes each value as an escaped string constant, typed by its context as a parameter is', () => {
    expect(
      inlineValues('"a" = $1 AND "b" > $2 AND "c" = ANY($3) AND "d" = $10', [
        "O'Brien \\ x",
        5,
        ['a"b', 'c\\d', null],
        ...Array(6).fill(0),
        true,
      ]),
    ).toBe(`"a" = E'O''Brien \\\\ x' AND "b" > E'5' AND "c" = ANY(E'{"a\\\\"b","c\\\\\\\\d",NULL}') AND "d" = E'true'`);
  });

  it('refuses a NUL character (it would end the statement text)', () => {
    expect(() => inlineValues('"a" = $1', ['x\u0000y'])).toThrow('A value holds a NUL character');
  });
});

describe('jsonRows / rowsSql (the rows of a large insert as one JSON value)', () => {
  it('holds each value as the text a bound parameter would send, null for none', () => {
    const at = new Date('2026-01-02T03:04:05.006Z');
    expect(JSON.parse(jsonRows([['a"b', 5, true, at, ['x', 'y,z', null], null, undefined, '{"k":1}']]))).toEqual([
      ['a"b', '5', 'true', '2026-01-02T03:04:05.006Z', '{"x","y,z",NULL}', null, null, '{"k":1}'],
    ]);
  });

  it("casts each value from its text to its column's type", () => {
    expect(rowsSql('$1', ['uuid', 'text[]'])).toBe(
      'SELECT (j.v ->> 0)::uuid, (j.v ->> 1)::text[] FROM jsonb_array_elements($1::jsonb) AS j(v)',
    );
  });
});
