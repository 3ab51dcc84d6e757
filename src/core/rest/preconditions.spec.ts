import { checkIfMatch, etagOf } from '../records/etag';

const KEY = Buffer.alloc(32, 1);
import { countPreference, parseIfMatch } from './preconditions';

describe('parseIfMatch', () => {
  it('reads *, one tag, a list, weak tags', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch(' * ')).toBe('*');
    expect(parseIfMatch('"abc"')).toEqual(['"abc"']);
    expect(parseIfMatch('"a", W/"b" ,"c"')).toEqual(['"a"', 'W/"b"', '"c"']);
    expect(parseIfMatch('""')).toEqual(['""']);
  });

  it('refuses what is not a list of quoted tags', () => {
    for (const bad of ['abc', '"abc', 'abc"', '"a" "b"', '"a",,', ',', '', '"a"b"', ['"a"']]) {
      expect(() => parseIfMatch(bad)).toThrow('If-Match must be');
    }
  });
});

describe('checkIfMatch', () => {
  const row = { id: '1', name: 'a', updatedAt: '2026-01-01 00:00:00.123456+00' };
  it('passes the current tag, *, or a list holding it; fails on anything else', () => {
    const current = etagOf(row, KEY);
    expect(() => checkIfMatch([current], row, KEY)).not.toThrow();
    expect(() => checkIfMatch('*', row, KEY)).not.toThrow();
    expect(() => checkIfMatch(['"old"', current], row, KEY)).not.toThrow();
    expect(() => checkIfMatch(['"old"'], row, KEY)).toThrow('has changed');
    expect(() => checkIfMatch([`W/${current}`], row, KEY)).toThrow('has changed');
  });

  it('changes with any column', () => {
    expect(etagOf(row, KEY)).toBe(etagOf({ ...row }, KEY));
    expect(etagOf(row, KEY)).not.toBe(etagOf({ ...row, name: 'b' }, KEY));
    expect(etagOf(row, KEY)).not.toBe(etagOf({ ...row, updatedAt: '2026-01-01 00:00:00.123457+00' }, KEY));
    // keyed: without the service's key, a guess of a value cannot be tested against it
    expect(etagOf(row, KEY)).not.toBe(etagOf(row, Buffer.alloc(32, 2)));
  });
});

describe('countPreference', () => {
  it('finds count= among other preferences and ignores what it does not know', () => {
    expect(countPreference('count=none')).toBe('none');
    expect(countPreference('return=minimal, count=estimated')).toBe('estimated');
    expect(countPreference('COUNT="exact"')).toBe('exact');
    expect(countPreference('count=sometimes')).toBeUndefined();
    expect(countPreference(undefined)).toBeUndefined();
    expect(countPreference(['count=none'])).toBeUndefined();
  });
});
