import { positionOf, tokenOf } from './change-tokens';

describe('change tokens', () => {
  it('round-trips positions', () => {
    for (const pos of [0, 1, 42, 1_000_000, 999_999_999_999_999]) expect(positionOf(tokenOf(pos))).toBe(pos);
  });

  it('refuses anything that is not exactly a token', () => {
    const bad = [
      '',
      'abc',
      'c1',
      tokenOf(5) + '=',
      tokenOf(5) + 'A',
      Buffer.from('c01').toString('base64url'),
      Buffer.from('c-1').toString('base64url'),
      Buffer.from('c1.5').toString('base64url'),
      'x'.repeat(40),
      '!!',
    ];
    for (const token of bad) expect(positionOf(token)).toBeUndefined();
  });
});
