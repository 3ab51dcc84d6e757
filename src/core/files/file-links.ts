import { createHmac } from 'node:crypto';
import { sameSecret } from '../security/same-secret';

/**
 * Signed download links (API.md section 16): `signature` = base64url HMAC-SHA256, with the
 * service's link key, of `<record id>.<expiry in epoch seconds>`. Whoever holds the URL downloads
 * the file until the expiry, without a bearer token; any change of the id, the expiry or the
 * signature makes it invalid.
 */
export function signLink(key: Buffer, id: string, expires: number): string {
  return createHmac('sha256', key).update(`${id.toLowerCase()}.${expires}`).digest('base64url');
}

/** Whether `signature` signs `id` until `expires` and `expires` (epoch seconds) is not past `now` (ms). */
export function verifyLink(key: Buffer, id: string, expires: string, signature: string, now = Date.now()): boolean {
  if (!/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{43}$/.test(signature)) return false;
  // the last of 43 base64url characters carries 2 unused bits: four texts, one accepted
  return sameSecret(signature, signLink(key, id, Number(expires))) && Number(expires) * 1000 > now;
}
