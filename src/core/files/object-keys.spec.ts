import { InvalidObjectKeyError } from './file-storage-errors';
import { assertObjectKey, isObjectKey, newObjectKey } from './object-keys';

describe('object keys', () => {
  it('are a random UUID under two folders named after its first four hex digits', () => {
    const keys = Array.from({ length: 1000 }, newObjectKey);
    expect(new Set(keys).size).toBe(1000);
    for (const key of keys) {
      const [first, second, id] = key.split('/');
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(first + second).toBe(id.slice(0, 4));
      expect(isObjectKey(key)).toBe(true);
    }
    // 1000 random keys spread over many first-level folders
    expect(new Set(keys.map((k) => k.slice(0, 2))).size).toBeGreaterThan(200);
  });

  it('accept nothing but that shape', () => {
    const key = newObjectKey();
    for (const bad of [
      '',
      key.slice(6),
      `${key}/`,
      `/${key}`,
      `${key.slice(0, 6)}../${key.slice(6)}`,
      `./${key}`,
      key.toUpperCase(),
      `${key[0] === '0' ? '1' : '0'}${key.slice(1)}`, // a first folder that is not the UUID's first digits
      key.replace(/-/g, ''),
      `${key}\n`,
    ]) {
      expect(isObjectKey(bad)).toBe(false);
      expect(() => assertObjectKey(bad)).toThrow(InvalidObjectKeyError);
    }
    expect(() => assertObjectKey(undefined as unknown as string)).toThrow(InvalidObjectKeyError);
  });
});
