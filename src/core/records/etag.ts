import { HttpException, HttpStatus } from '@nestjs/common';
import { hash } from 'node:crypto';

/**
 * The version of a stored record, sent as `ETag` by get one, create one, update one and restore:
 * a hash of every stored column (updatedAt included), so any change of the record changes it,
 * whatever representation (depth, fields) the client asked for.
 */
export function etagOf(row: Record<string, unknown>): string {
  // one-shot hash (no Hash object per call): the same digest
  return `"${hash('sha1', JSON.stringify(row), 'base64url')}"`;
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
export function checkIfMatch(ifMatch: IfMatch | undefined, row: Record<string, unknown>): void {
  if (ifMatch === undefined || ifMatch === '*') return;
  const current = etagOf(row);
  if (!ifMatch.includes(current)) {
    throw new PreconditionFailedException(
      'The record has changed since it was read (If-Match does not match its ETag); read it again and retry',
    );
  }
}
