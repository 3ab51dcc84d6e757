import { randomBytes, randomUUID } from 'node:crypto';
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
    expect(
      verifyLink(key, id, String(expires), `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
    ).toBe(false);
    expect(verifyLink(key, id, `${expires}.5`, signature)).toBe(false);
    expect(verifyLink(key, id, String(expires), '')).toBe(false);
  });
});
