import { Injectable, NotFoundException } from '@nestjs/common';
import { Db, ReadTarget } from '../database/db';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord } from '../model/record';
import { ListQuery } from '../query/list-query';
import { Shape } from '../query/record-shape';
import { Repositories } from '../repository/repositories';
import { KeyRing } from '../security/keys';
import { etagOf } from './etag';
import { Count, CountMode, RecordCounts } from './record-counts';
import { findPage, PageInfo } from './record-lists';
import { RecordShaper } from './record-shaper';

export interface ListResult {
  records: ApiRecord[];
  pageInfo: PageInfo;
  count: Count;
}

/** A record with its version (ETag). */
export interface VersionedRecord {
  record: ApiRecord;
  etag: string;
}

/** Reads: a page of a list, one record. Single statements (plus one per relation loaded). */
@Injectable()
export class RecordReads {
  constructor(
    private readonly db: Db,
    private readonly repositories: Repositories,
    private readonly shaper: RecordShaper,
    private readonly counts: RecordCounts,
    private readonly keys: KeyRing,
  ) {}

  async findMany(
    meta: CollectionMeta,
    query: ListQuery,
    access: Access,
    count: CountMode = 'exact',
    reads: ReadTarget = this.db,
  ): Promise<ListResult> {
    const page = await findPage(
      reads,
      this.repositories.of(meta, access),
      query,
      this.keys.cursorKey,
      this.counts.counter(meta, count, query.filter, access, reads),
    );
    const records = await this.shaper.shape(reads, meta, page.rows, query, access);
    return { records, pageInfo: page.pageInfo, count: page.count };
  }

  /** `reads`: where the statements go (a replica the edge chose, API.md section 19); the primary by default. */
  async findOne(
    meta: CollectionMeta,
    id: string,
    shape: Shape,
    access: Access,
    reads: ReadTarget = this.db,
  ): Promise<VersionedRecord> {
    const row = await this.repositories.of(meta, access).findLive(reads, id);
    if (!row) throw new NotFoundException('Record not found');
    const [record] = await this.shaper.shape(reads, meta, [row], shape, access);
    return { record, etag: etagOf(row, this.keys.etagKey) };
  }
}
