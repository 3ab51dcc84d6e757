import { ForbiddenException } from '@nestjs/common';
import { canSearch } from '../model/readable-fields';
import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { plainSearchText } from '../model/search-text';
import { decodeCursor } from './cursor';

/**
 * Parser of `GET /search` (API.md section 12). Pure.
 *
 *   query   := words; each must match the start of a word of the record (`ada lov`), accents and case ignored
 *   objects := plural ( ',' plural )*      collections with a search vector; all of them when absent
 *   limit   := 1..100 (default 20)         starting_after := a cursor of an earlier answer
 */
export interface SearchQuery {
  /** The words as a tsquery of prefixes, all required: `'ada':* & 'lov':*`. */
  tsquery: string;
  /** The same words exactly, any of them (`'ada' | 'lov'`): ranks a whole-word match above a prefix one. */
  exact: string;
  collections: CollectionMeta[];
  limit: number;
  after?: { rank: number; id: string };
}

export const SEARCH_SORT = 'search:tsRank:D,id:A';

export function parseSearchQuery(
  catalog: CollectionCatalog,
  params: { query?: string; objects?: string; limit?: string; starting_after?: string },
  cursorKey: Buffer,
  access: Access,
): SearchQuery {
  const words = plainSearchText(params.query ?? '')
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}._+-]/gu, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) throw new QueryError('query is required: one or more words to search for');
  // words hold only letters, digits and . _ + -: quoted as lexemes, nothing to escape
  const quoted = words.map((w) => `'${w}'`);
  const tsquery = quoted.map((w) => `${w}:*`).join(' & ');
  const exact = quoted.join(' | ');
  const searchable = catalog.all().filter((m) => m.searchable);
  // a key searches the collections it can read whose searched fields it can all read
  const allowed = (m: CollectionMeta) => canSearch(access, m);
  let collections = searchable.filter(allowed);
  if (params.objects !== undefined) {
    const names = params.objects.split(',').map((n) => n.trim());
    const unknown = names.find((n) => !searchable.some((m) => m.plural === n));
    if (unknown !== undefined)
      throw new QueryError(
        `objects: '${unknown}' is not a searchable collection; one of ${searchable.map((m) => m.plural).join(', ')}`,
      );
    const closed = searchable.find((m) => names.includes(m.plural) && !allowed(m));
    if (closed) throw new ForbiddenException(`API key '${access.keyName}' may not search ${closed.plural}`);
    collections = searchable.filter((m) => names.includes(m.plural));
  }
  const limit = params.limit === undefined ? 20 : Number(params.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw new QueryError(`limit '${params.limit}' is invalid: an integer from 1 to 100`);
  let after: SearchQuery['after'];
  if (params.starting_after !== undefined) {
    const [rank, id] = decodeCursor(cursorKey, params.starting_after, SEARCH_SORT, 2).v as [number, string];
    after = { rank, id };
  }
  return { tsquery, exact, collections, limit, after };
}
