import { SecretBox } from './secret-box';
import { decodeKey, deriveKey } from './keys';

describe('SecretBox', () => {
  const box = new SecretBox(Buffer.alloc(32, 3));

  it('encrypts with a fresh IV each time and decrypts back', () => {
    const a = box.encrypt('ya29.token');
    const b = box.encrypt('ya29.token');
    expect(a).not.toBe(b);
    expect(a.startsWith('enc:v1:')).toBe(true);
    expect(a).not.toContain('ya29');
    expect(box.decrypt(a)).toBe('ya29.token');
  });

  it('refuses tampered ciphertext and other keys', () => {
    const stored = box.encrypt('secret');
    const bytes = Buffer.from(stored.slice(7), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.decrypt('enc:v1:' + bytes.toString('base64'))).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 4)).decrypt(stored)).toThrow();
  });

  it('passes through unencrypted defaults', () => {
    expect(box.decrypt('')).toBe('');
  });

  it('decodes keys and derives independent sub-keys', () => {
    const master = decodeKey(Buffer.alloc(32, 9).toString('base64'));
    expect(decodeKey('09'.repeat(32))).toEqual(master);
    expect(() => decodeKey('short')).toThrow(/32 bytes/);
    expect(deriveKey(master, 'cursor-signing')).not.toEqual(deriveKey(master, 'field-encryption'));
  });
});
