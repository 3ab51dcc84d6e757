import { ForbiddenException } from '@nestjs/common';
import { canRead } from '../model/readable-fields';
import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import type { CollectionMeta } from '../model/collection-meta';
import { positionOf } from './change-tokens';

/** A read of the feed, checked: the position after which to read, the page size, the collections asked for. */
export interface ChangesQuery {
  since: number;
  limit: number;
  /** Undefined: every collection the key can read. */
  collections?: CollectionMeta[];
}

export const CHANGES_LIMIT_DEFAULT = 200;
export const CHANGES_LIMIT_MAX = 1000;

/** `since` (or a stream's `Last-Event-ID`), `limit` and `collections` as section 15 words their errors. */
export function parseChangesQuery(
  catalog: CollectionCatalog,
  params: { since?: string; limit?: string; collections?: string },
  access: Access,
): ChangesQuery {
  if (params.since === undefined || params.since === '')
    throw new QueryError('since is required (GET /changes/head gives the current position)');
  const since = positionOf(params.since);
  if (since === undefined) throw new QueryError('Invalid since token');
  const limit = params.limit === undefined ? CHANGES_LIMIT_DEFAULT : Number(params.limit);
  if (!/^[0-9]+$/.test(params.limit ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > CHANGES_LIMIT_MAX)
    throw new QueryError(`limit '${params.limit}' is invalid: an integer from 1 to ${CHANGES_LIMIT_MAX}`);
  if (params.collections === undefined) return { since, limit };
  const names = params.collections.split(',').map((n) => n.trim());
  const collections: CollectionMeta[] = [];
  for (const name of names) {
    const meta = catalog.get(name);
    if (!meta) {
      const plural = catalog.pluralOf(name);
      throw new QueryError(
        `collections: '${name}' is not a collection${plural ? `. Did you mean '${plural}'?` : '; eg: companies'}`,
      );
    }
    // a closed collection is refused as a list of it would be (section 14)
    if (!canRead(access, meta.plural))
      throw new ForbiddenException(`API key '${access.keyName}' may not read ${meta.plural}`);
    if (!collections.includes(meta)) collections.push(meta);
  }
  return { since, limit, collections };
}
