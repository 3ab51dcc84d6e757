import { BadRequestException, HttpException, HttpStatus } from '@nestjs/common';
import { createHash } from 'node:crypto';

/**
 * The version of a stored record, sent as `ETag` by get one, create one, update one and restore:
 * a hash of every stored column (updatedAt included), so any change of the record changes it,
 * whatever representation (depth, fields) the client asked for.
 */
export function etagOf(row: Record<string, unknown>): string {
  return `"${createHash('sha1').update(JSON.stringify(row)).digest('base64url')}"`;
}

/** A parsed `If-Match`: `*` (any current record) or a list of entity tags. */
export type IfMatch = '*' | string[];

const ENTITY_TAG = /^\s*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/;

/** Parses an `If-Match` header (RFC 9110 13.1.1); undefined when absent, 400 when malformed. */
export function parseIfMatch(header: unknown): IfMatch | undefined {
  if (header === undefined) return undefined;
  const malformed = () => new BadRequestException('If-Match must be * or a comma-separated list of quoted entity tags, e.g. If-Match: "abc"');
  if (typeof header !== 'string') throw malformed();
  if (header.trim() === '*') return '*';
  const tags: string[] = [];
  let rest = header;
  while (rest.trim() !== '') {
    const match = ENTITY_TAG.exec(rest);
    if (!match) throw malformed();
    tags.push(match[1]);
    rest = rest.slice(match[0].length);
  }
  if (tags.length === 0) throw malformed();
  return tags;
}

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
    throw new PreconditionFailedException('The record has changed since it was read (If-Match does not match its ETag); read it again and retry');
  }
}

/**
 * The `count` preference of a `Prefer` header (RFC 7240): exact, estimated or none; undefined
 * when absent or not understood (preferences a server does not know are ignored).
 */
export function countPreference(header: unknown): 'exact' | 'estimated' | 'none' | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(',')) {
    const match = /^\s*count\s*=\s*"?(exact|estimated|none)"?\s*(?:;.*)?$/i.exec(part);
    if (match) return match[1].toLowerCase() as 'exact' | 'estimated' | 'none';
  }
  return undefined;
}
