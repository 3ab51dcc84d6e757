import { HttpException, HttpStatus } from '@nestjs/common';
import { createHmac } from 'node:crypto';

/**
 * The version of a stored record, sent as `ETag` by get one, create one, update one and restore:
 * a keyed hash (HMAC with a key derived from the service's master key) of every stored column
 * (updatedAt included), so any change of the record changes it, whatever representation (depth,
 * fields) the client asked for. Keyed, because a key whose role hides a field must not be able to
 * test guesses of its value against the ETag (API.md section 14).
 */
export function etagOf(row: Record<string, unknown>, key: Buffer): string {
  return `"${createHmac('sha256', key).update(JSON.stringify(row)).digest('base64url')}"`;
}

/** A parsed `If-Match`: `*` (any current record) or a list of entity tags. */
export type IfMatch = '*' | string[];

export class PreconditionFailedException extends HttpException {
  constructor(message: string) {
    super(message, HttpStatus.PRECONDITION_FAILED);
  }
}

/**
 * 412 unless the current record matches. Strong comparison, as If-Match requires: a weak tag
 * (`W/"..."`) never matches.
 */
export function checkIfMatch(ifMatch: IfMatch | undefined, row: Record<string, unknown>, key: Buffer): void {
  if (ifMatch === undefined || ifMatch === '*') return;
  const current = etagOf(row, key);
  if (!ifMatch.includes(current)) {
    throw new PreconditionFailedException(
      'The record has changed since it was read (If-Match does not match its ETag); read it again and retry',
    );
  }
}
