import { Injectable } from '@nestjs/common';
import { Db, ReadTarget } from '../database/db';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';
import { SqlParams } from '../query/sql-params';
import { encodeCursor } from '../query/cursor';
import { Criterion, duplicateCondition, MAX_DUPLICATES, resolveCriteria } from '../query/duplicate-condition';
import { Shape } from '../query/record-shape';
import { Repositories } from '../repository/repositories';
import { KeyRing } from '../security/keys';
import { PageInfo } from './record-lists';
import { RecordShaper } from './record-shaper';

/** Body of find-duplicates after validation: exactly one of the two. */
export type DuplicatesInput = { data: Row[] } | { ids: string[] };

export interface DuplicatesResult {
  totalCount: number;
  pageInfo: PageInfo;
  records: ApiRecord[];
}

/** Find duplicates (API.md section 5): per input record, the live records equal on a criterion. */
@Injectable()
export class RecordDuplicates {
  private readonly criteria = new Map<CollectionMeta, Criterion[]>();

  constructor(
    private readonly db: Db,
    catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly shaper: RecordShaper,
    private readonly keys: KeyRing,
  ) {
    for (const meta of catalog.all()) this.criteria.set(meta, resolveCriteria(meta));
  }

  async find(
    meta: CollectionMeta,
    input: DuplicatesInput,
    shape: Shape,
    access: Access,
    reads: ReadTarget = this.db,
  ): Promise<DuplicatesResult[]> {
    const repository = this.repositories.of(meta, access);
    let subjects: { record: Row; selfId?: string }[];
    if ('ids' in input) {
      if (input.ids.length === 0) return [];
      const byId = new Map(
        this.shaper.records(meta, await repository.findLiveByIds(reads, input.ids)).map((r) => [r.id as string, r]),
      );
      subjects = input.ids.filter((id) => byId.has(id)).map((id) => ({ record: byId.get(id)!, selfId: id }));
    } else {
      subjects = input.data.map((record) => ({ record }));
    }
    const criteria = this.criteria.get(meta)!;
    const matches = await Promise.all(
      subjects.map(async ({ record, selfId }) => {
        const params = new SqlParams();
        const condition = duplicateCondition(criteria, record, params, selfId);
        if (!condition) return [];
        return repository.duplicates(reads, condition, params.values, MAX_DUPLICATES);
      }),
    );
    const records = await this.shaper.shape(reads, meta, matches.flat(), shape, access);
    const cursor = (record: ApiRecord) => encodeCursor(this.keys.cursorKey, { s: 'id:AL', v: [record.id] });
    let offset = 0;
    return matches.map((rows) => {
      const found = records.slice(offset, offset + rows.length);
      offset += rows.length;
      const totalCount = rows.length ? Number(rows[0].__total) : 0;
      return {
        totalCount,
        pageInfo: {
          hasNextPage: totalCount > MAX_DUPLICATES,
          hasPreviousPage: false,
          startCursor: found.length ? cursor(found[0]) : null,
          endCursor: found.length ? cursor(found[found.length - 1]) : null,
        },
        records: found,
      };
    });
  }
}
