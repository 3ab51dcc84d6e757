import { BadRequestException } from '@nestjs/common';
import { IfMatch } from '../records/etag';

const ENTITY_TAG = /^\s*((?:W\/)?"[\x21\x23-\x7e\x80-\xff]*")\s*(?:,|$)/;

/** Parses an `If-Match` header (RFC 9110 13.1.1); undefined when absent, 400 when malformed. */
export function parseIfMatch(header: unknown): IfMatch | undefined {
  if (header === undefined) return undefined;
  const malformed = () =>
    new BadRequestException('If-Match must be * or a comma-separated list of quoted entity tags, e.g. If-Match: "abc"');
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
