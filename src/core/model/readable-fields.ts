import { ForbiddenException } from '@nestjs/common';
import { QueryError } from '../errors/query-error';
import type { Access, Grant } from './access';
import type { ColumnRef } from './column-ref';

/**
 * What a key may read (API.md section 14), as the query language checks it where inputs are
 * parsed: a hidden field named in `fields`, `filter`, `order_by`, `order_by_for_records`,
 * `group_by` or `aggregate` is a 400 `Field '<name>' is not readable`; a path through a
 * collection the key cannot read is a 403. Facts of an `Access` alone, kept in the model so that
 * the query compiler (below src/core/access) and access both use them.
 */

export const notReadable = (name: string) => new QueryError(`Field '${name}' is not readable`);

/** Whether the key can read the collection at all. */
export function canRead(access: Access, plural: string): boolean {
  return access.grant(plural)?.actions.has('read') === true;
}

/** Whether the key may search a collection: it can read it, and every field its search vector is made of. */
export function canSearch(access: Access, meta: { plural: string; searchFields: readonly string[] }): boolean {
  if (access.admin) return true;
  const grant = access.grant(meta.plural);
  return grant?.actions.has('read') === true && !meta.searchFields.some((f) => grant.hidden.has(f));
}

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
