import { respelled } from '../../../test/support/base64url';
import { decodeCursor, encodeCursor } from './cursor';

describe('cursors', () => {
  const key = Buffer.alloc(32, 1);
  const payload = { s: 'name:AF,id:AL', v: ['Acme', null, 'f1a7c1b0-0000-4000-8000-000000000000'] };

  it('round-trips values of a sort', () => {
    const token = encodeCursor(key, payload);
    expect(decodeCursor(key, token, payload.s, 3)).toEqual(payload);
  });

  it('is opaque (no plain values) and signed', () => {
    const token = encodeCursor(key, payload);
    expect(token).not.toContain('Acme');
    const [body, sig] = token.split('.');
    const tampered = Buffer.from(JSON.stringify({ ...payload, v: ['Zzz', null, payload.v[2]] })).toString('base64url');
    expect(() => decodeCursor(key, `${tampered}.${sig}`, payload.s, 3)).toThrow('Invalid cursor');
    expect(() => decodeCursor(Buffer.alloc(32, 2), token, payload.s, 3)).toThrow('Invalid cursor');
    const flipped = sig[5] === 'A' ? 'B' : 'A';
    expect(() => decodeCursor(key, `${body}.${sig.slice(0, 5)}${flipped}${sig.slice(6)}`, payload.s, 3)).toThrow(
      'Invalid cursor',
    );
  });

  it('is accepted only as written: not in another spelling of the same signature bytes', () => {
    const token = encodeCursor(key, payload);
    const [body, sig] = token.split('.');
    // 22 base64url characters hold 132 bits for 16 bytes: the low 4 bits of the last one are unused
    const other = respelled(sig);
    expect(other).not.toBe(sig);
    expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(sig, 'base64url'));
    expect(() => decodeCursor(key, `${body}.${other}`, payload.s, 3)).toThrow('Invalid cursor');
  });

  it('belongs to one sort', () => {
    const token = encodeCursor(key, payload);
    expect(() => decodeCursor(key, token, 'id:AL', 1)).toThrow('Invalid cursor');
    expect(() => decodeCursor(key, token, payload.s, 2)).toThrow('Invalid cursor');
  });

  it.each(['', 'abc', 'a.b', '....', 'x'.repeat(9000) + '.' + 'A'.repeat(22)])('rejects garbage %#', (token) => {
    expect(() => decodeCursor(key, token, payload.s, 3)).toThrow('Invalid cursor');
  });
});
