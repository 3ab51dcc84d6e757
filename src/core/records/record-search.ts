import { Injectable } from '@nestjs/common';
import { redact } from '../access/redact';
import { Db, ReadTarget } from '../database/db';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';
import { encodeCursor } from '../query/cursor';
import { SEARCH_SORT, SearchQuery } from '../query/search-query';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { searchRows } from '../repository/search-statements';
import { KeyRing } from '../security/keys';

export interface SearchResult {
  objectNameSingular: string;
  recordId: string;
  label: string;
  imageUrl: string | null;
  tsRank: number;
  tsRankCD: number;
  record: ApiRecord;
}

export interface SearchAnswer {
  results: SearchResult[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

const IMAGE_FIELDS = ['avatarUrl', 'logo', 'imageUrl'];

/** A record's label: its label identifier as text (a FULL_NAME as "first last"). */
function labelOf(meta: CollectionMeta, record: ApiRecord): string {
  const value = meta.def.labelIdentifier ? record[meta.def.labelIdentifier] : undefined;
  if (value && typeof value === 'object') {
    const { firstName, lastName } = value as { firstName?: string; lastName?: string };
    return [firstName, lastName].filter(Boolean).join(' ');
  }
  return value === null || value === undefined ? '' : String(value);
}

/** Search across collections (API.md section 12): one statement, keyset-paginated by (rank, id). */
@Injectable()
export class RecordSearch {
  private readonly bySingular = new Map<string, CollectionMeta>();

  constructor(
    private readonly db: Db,
    catalog: CollectionCatalog,
    private readonly codecs: RecordCodecs,
    private readonly keys: KeyRing,
    private readonly repositories: Repositories,
  ) {
    for (const meta of catalog.all()) this.bySingular.set(meta.def.singular, meta);
  }

  /** The key's search: within its rows of each collection, the records as it may see them. */
  async search(query: SearchQuery, access: Access, reads: ReadTarget = this.db): Promise<SearchAnswer> {
    const scopeOf = (meta: CollectionMeta) => this.repositories.of(meta, access).scope;
    const rows = await searchRows(reads, query, query.limit + 1, scopeOf);
    const page = rows.slice(0, query.limit);
    const results = page.map((row: Row) => {
      const meta = this.bySingular.get(row.objectNameSingular as string)!;
      const record = redact(meta, this.codecs.of(meta).toRecord(row.record as Row), access);
      const image = IMAGE_FIELDS.find((f) => meta.fieldByName.has(f));
      return {
        objectNameSingular: meta.def.singular,
        recordId: row.recordId as string,
        label: labelOf(meta, record),
        imageUrl: image && record[image] ? (record[image] as string) : null,
        tsRank: row.tsRank as number,
        tsRankCD: row.tsRankCD as number,
        record,
      };
    });
    const last = page[page.length - 1];
    return {
      results,
      pageInfo: {
        hasNextPage: rows.length > query.limit,
        endCursor: last ? encodeCursor(this.keys.cursorKey, { s: SEARCH_SORT, v: [last.tsRank, last.recordId] }) : null,
      },
    };
  }
}
