import { ForbiddenException } from '@nestjs/common';
import { QueryError } from '../errors/query-error';
import type { Access, Grant } from '../model/access';
import type { ColumnRef } from '../model/column-ref';
import type { Row } from '../model/record';

/**
 * Which fields a key may name (API.md section 14), checked where inputs are parsed: a hidden field
 * named in `fields`, `filter`, `order_by`, `group_by` or `aggregate` is a 400 `Field '<name>' is
 * not readable`; a path through a collection the key cannot read is a 403; a hidden or read-only
 * field in a write body is a 400 `Field '<name>' is not writable`.
 */

export const notReadable = (name: string) => new QueryError(`Field '${name}' is not readable`);

/** The grant of a collection the key must be able to read (403 otherwise). */
function readableGrant(access: Access, plural: string): Grant {
  const grant = access.grant(plural);
  if (!grant?.actions.has('read')) throw new ForbiddenException(`API key '${access.keyName}' may not read ${plural}`);
  return grant;
}

/** A top-level field of `plural` the key names: 400 when its grant hides it. */
export function checkReadable(access: Access, plural: string, field: string): void {
  if (!access.admin && access.grant(plural)?.hidden.has(field)) throw notReadable(field);
}

/**
 * A field path of `plural` resolved to `ref` (own field, or through relations): every collection it
 * goes through must be readable (403), and neither the join columns it follows nor the field it
 * ends on may be hidden (400 naming the top-level field).
 */
export function checkPathReadable(access: Access, plural: string, path: readonly string[], ref: ColumnRef): void {
  if (access.admin) return;
  let grant = readableGrant(access, plural);
  if (!ref.hops) {
    if (grant.hidden.has(path[0])) throw notReadable(path[0]);
    return;
  }
  ref.hops.forEach((hop) => {
    const next = readableGrant(access, hop.plural);
    // the join column is a field of the side that holds it
    const holder = hop.kind === 'MANY_TO_ONE' ? grant : next;
    if (holder.hidden.has(hop.joinColumn)) throw notReadable(hop.joinColumn);
    grant = next;
  });
  const field = path[ref.hops.length];
  if (grant.hidden.has(field)) throw notReadable(field);
}

/** The problems of a write body for the key: each hidden or read-only field it sets. */
export function writeProblems(access: Access, plural: string, record: Row): string[] {
  if (access.admin) return [];
  const grant = access.grant(plural);
  if (!grant) return [];
  return Object.keys(record)
    .filter((name) => grant.hidden.has(name) || grant.readOnly.has(name))
    .map((name) => `Field '${name}' is not writable`);
}
