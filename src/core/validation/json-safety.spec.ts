import { checkJsonSafety } from './json-safety';

describe('checkJsonSafety', () => {
  it('accepts ordinary records', () => {
    expect(checkJsonSafety({ name: 'x', nested: { list: [1, { a: 2 }] } })).toBeUndefined();
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s anywhere', (key) => {
    expect(checkJsonSafety(JSON.parse(`{"${key}": {"x": 1}}`))).toBe(`property ${key} is not allowed`);
    expect(checkJsonSafety(JSON.parse(`{"a": [{"${key}": 1}]}`))).toBe(`property a.0.${key} is not allowed`);
  });

  it('bounds nesting', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(checkJsonSafety(deep)).toBe('Body is nested deeper than 32 levels');
    expect(checkJsonSafety(deep, 64)).toBeUndefined();
  });
});
