import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import type { ApiRecord } from '../model/record';

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
  if (grant.omitted.size > 0) {
    out = {};
    for (const name in record) if (!grant.omitted.has(name)) out[name] = record[name];
  }
  return meta.def.hooks?.redact ? meta.def.hooks.redact(out, access) : out;
}
