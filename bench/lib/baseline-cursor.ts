import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The baseline server's own keyset cursor: base64url(JSON [id]) '.' base64url(HMAC-SHA256[0..16)).
 * Signed like the service's cursors (a tampered cursor is refused), for the default sort only
 * (by id), which is all the benchmark pages with.
 */
function sign(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, 16);
}

export function encodeBaselineCursor(key: Buffer, id: string): string {
  const body = Buffer.from(JSON.stringify([id])).toString('base64url');
  return `${body}.${sign(key, body).toString('base64url')}`;
}

/** The id of a cursor, or undefined when it is malformed or not signed with `key`. */
export function decodeBaselineCursor(key: Buffer, token: string): string | undefined {
  const match = /^([A-Za-z0-9_-]{1,8192})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) return undefined;
  const given = Buffer.from(match[2], 'base64url');
  if (given.length !== 16 || !timingSafeEqual(given, sign(key, match[1]))) return undefined;
  try {
    const value = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
    return Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' ? value[0] : undefined;
  } catch {
    return undefined;
  }
}
