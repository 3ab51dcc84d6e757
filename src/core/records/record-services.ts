import { Injectable } from '@nestjs/common';
import { idempotencyRequest } from '../idempotency/idempotency.store';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { Shape } from '../query/record-shape';
import { RecordBulkWrites } from './bulk-writes';
import { RecordDuplicates } from './record-duplicates';
import { RecordExports } from './record-exports';
import { RecordGroups } from './record-groups';
import { RecordMerges } from './record-merges';
import { RecordReads } from './record-reads';
import { RecordUpserts } from './record-upserts';
import { CreateResult, RecordWrites } from './record-writes';

/** The services behind a collection's routes, injected into its controller as one. */
@Injectable()
export class RecordServices {
  constructor(
    readonly reads: RecordReads,
    readonly writes: RecordWrites,
    readonly duplicates: RecordDuplicates,
    readonly upserts: RecordUpserts,
    readonly bulk: RecordBulkWrites,
    readonly merges: RecordMerges,
    readonly groups: RecordGroups,
    readonly exports: RecordExports,
  ) {}

  /**
   * Creates records, or upserts them (`upsert`), with an optional Idempotency-Key scoped to
   * `scope` (the route: the same key on another route is another request). `indexed`: a
   * multi-record request, whose errors name each record's index.
   */
  createOrUpsert(
    meta: CollectionMeta,
    scope: string,
    input: { records: Row[]; upsert: boolean },
    shape: Shape,
    actor: RequestActor,
    options: { idempotencyKey?: string; indexed?: boolean; asked?: unknown },
  ): Promise<CreateResult> {
    const { records, upsert } = input;
    const asked = options.asked ?? records;
    const idempotency = idempotencyRequest(options.idempotencyKey, actor.apiKeyId, scope, upsert, shape, asked);
    const create = { indexed: options.indexed === true, idempotency };
    return upsert
      ? this.upserts.upsert(meta, records, shape, actor, create)
      : this.writes.create(meta, records, shape, actor, create);
  }
}
