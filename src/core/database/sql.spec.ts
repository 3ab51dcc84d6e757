import { inlineValues } from './sql';

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
