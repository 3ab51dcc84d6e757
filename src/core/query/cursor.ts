import { createHmac } from 'node:crypto';
import { QueryError } from '../errors/query-error';
import { sameSecret } from '../security/same-secret';

/**
 * Opaque, signed keyset cursors. A cursor holds the sort values of one record plus its id and
 * the signature of the sort it was made for:
 *
 *   cursor := base64url(JSON {"s": sortSignature, "v": [value, ..., id]}) '.' base64url(HMAC-SHA256[0..16))
 *
 * A cursor that does not decode, is signed with another key, or belongs to another sort is
 * rejected with `Invalid cursor`.
 */
export interface CursorPayload {
  /** Signature of the sort (see `sortSignature`). */
  s: string;
  /** Sort key values, then the id. */
  v: unknown[];
}

function sign(key: Buffer, body: string): Buffer {
  return createHmac('sha256', key).update(body).digest().subarray(0, 16);
}

export function encodeCursor(key: Buffer, payload: CursorPayload): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${sign(key, body).toString('base64url')}`;
}

export function decodeCursor(key: Buffer, token: string, expectedSort: string, expectedValues: number): CursorPayload {
  const invalid = () => new QueryError('Invalid cursor');
  const match = /^([A-Za-z0-9_-]{1,8192})\.([A-Za-z0-9_-]{22})$/.exec(token);
  if (!match) throw invalid();
  // the last of 22 base64url characters carries 4 unused bits: sixteen texts, one accepted
  if (!sameSecret(match[2], sign(key, match[1]).toString('base64url'))) throw invalid();
  let payload: CursorPayload;
  try {
    payload = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (
    typeof payload !== 'object' ||
    payload === null ||
    payload.s !== expectedSort ||
    !Array.isArray(payload.v) ||
    payload.v.length !== expectedValues
  ) {
    throw invalid();
  }
  return payload;
}
