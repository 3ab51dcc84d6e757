import { createHmac, timingSafeEqual } from 'node:crypto';

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
  // the texts, not the decoded bytes: the last of 43 base64url characters carries 2 unused bits,
  // so four texts decode to the same bytes, and only the one the service wrote is its link
  const expected = Buffer.from(signLink(key, id, Number(expires)));
  const given = Buffer.from(signature);
  // constant time: a forger learns nothing from how long the comparison took
  return given.length === expected.length && timingSafeEqual(given, expected) && Number(expires) * 1000 > now;
}
