import { parseBoolean, parseDepth, parseFields, parseLimit } from './parse-params';

describe('small query parameters', () => {
  it('limit: default, value, cap, errors', () => {
    expect(parseLimit(undefined, 60, 200)).toBe(60);
    expect(parseLimit('0', 60, 200)).toBe(0);
    expect(parseLimit('15', 60, 200)).toBe(15);
    expect(parseLimit('5000', 60, 200)).toBe(200);
    for (const bad of ['-1', '1.5', 'abc', '', '1e3', '99999999999']) {
      expect(() => parseLimit(bad, 60, 200)).toThrow(`limit '${bad}' is invalid. Should be an integer`);
    }
  });

  it('depth: 0, 1 (default), 2 only', () => {
    expect(parseDepth(undefined)).toBe(1);
    expect([parseDepth('0'), parseDepth('1'), parseDepth('2')]).toEqual([0, 1, 2]);
    expect(() => parseDepth('3')).toThrow("'depth=3' parameter invalid. Allowed values are 0, 1, 2");
    expect(() => parseDepth('01')).toThrow(/depth=01/);
  });

  it('fields: names, id always first, duplicates dropped', () => {
    expect(parseFields(undefined)).toBeUndefined();
    expect(parseFields('name, emails,name')).toEqual(['id', 'name', 'emails']);
    expect(() => parseFields('name,em ails')).toThrow(/'em ails' is not a field name/);
    expect(() => parseFields('name,')).toThrow(/'' is not a field name/);
  });

  it('booleans', () => {
    expect(parseBoolean('soft_delete', undefined)).toBe(false);
    expect(parseBoolean('soft_delete', 'true')).toBe(true);
    expect(() => parseBoolean('soft_delete', 'yes')).toThrow("'soft_delete=yes' parameter invalid");
  });
});
