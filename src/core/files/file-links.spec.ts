import { randomBytes, randomUUID } from 'node:crypto';
import { respelled, withCharacter } from '../../../test/support/base64url';
import { signLink, verifyLink } from './file-links';

describe('signed file links', () => {
  const key = randomBytes(32);
  const id = randomUUID();
  const expires = Math.floor(Date.now() / 1000) + 60;
  const signature = signLink(key, id, expires);

  it('verifies its own signature until the expiry', () => {
    expect(verifyLink(key, id, String(expires), signature)).toBe(true);
    expect(verifyLink(key, id, String(expires), signature, (expires + 1) * 1000)).toBe(false);
  });

  it('refuses another id, expiry, key or signature', () => {
    expect(verifyLink(key, randomUUID(), String(expires), signature)).toBe(false);
    expect(verifyLink(key, id, String(expires + 1), signature)).toBe(false);
    expect(verifyLink(randomBytes(32), id, String(expires), signature)).toBe(false);
    const firstChanged = withCharacter(signature, 0, (value) => value + 1);
    expect(verifyLink(key, id, String(expires), firstChanged)).toBe(false);
    // the last character's 2 low bits are not part of the 32 bytes: the same bytes, another text
    const sameBytes = respelled(signature);
    expect(sameBytes).not.toBe(signature);
    expect(Buffer.from(sameBytes, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    expect(verifyLink(key, id, String(expires), sameBytes)).toBe(false);
    expect(verifyLink(key, id, `${expires}.5`, signature)).toBe(false);
    expect(verifyLink(key, id, String(expires), '')).toBe(false);
  });
});
