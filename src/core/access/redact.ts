import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import type { ApiRecord } from '../model/record';
import { canRead } from './access-checks';

/**
 * A record as the key may see it (API.md section 14): without the fields its grant hides, without
 * the relations to collections it cannot read (a join column stays, being a field of the record,
 * unless hidden), and, for rows about other records (audit log, timeline), without what it may not
 * read of those (the collection's `redact` hook). The record itself when the key is an admin.
 */
export function redact(meta: CollectionMeta, record: ApiRecord, access: Access): ApiRecord {
  if (access.admin) return record;
  const grant = access.grant(meta.plural);
  if (!grant) return {};
  let out = record;
  const closed = [...meta.manyToOne, ...meta.oneToMany].filter((r) => !canRead(access, r.target)).map((r) => r.name);
  if (grant.hidden.size > 0 || closed.length > 0) {
    out = {};
    for (const [name, value] of Object.entries(record))
      if (!grant.hidden.has(name) && !closed.includes(name)) out[name] = value;
  }
  return meta.def.hooks?.redact ? meta.def.hooks.redact(out, access) : out;
}
