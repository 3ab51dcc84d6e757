import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { writeProblems } from '../access/field-access';
import { CountCache } from '../cache/count-cache';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db, Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { IdempotencyRequest, IdempotencyStore } from '../idempotency/idempotency.store';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';
import { explainBatchError } from './batch-errors';
import { RecordChecks } from './record-checks';

export interface CreateOptions {
  /** Several records: a constraint error names the index of each offending record. */
  indexed?: boolean;
  /** The write is one statement: without an idempotency key, it is sent without a transaction. */
  single?: boolean;
  /** The request's Idempotency-Key, if it sent one. */
  idempotency?: IdempotencyRequest;
}

/** What a create answers: the records (input order), the ETag of a single one, and whether it is a replay. */
export interface CreateResult {
  records: ApiRecord[];
  etag?: string;
  replayed: boolean;
}

/**
 * Which cached counts a write may change: its own collection's, every collection's (a hard
 * delete's cascades), or its own and these others' (a merge re-points their join columns).
 */
export type Touches = 'own' | 'all' | { also: readonly string[] };

/**
 * The frame of every write: one transaction, then (committed, before the answer) the cached
 * counts of what it touched marked as changed: its collection and the collections its events
 * write into; a hard delete may clear or delete rows of any collection that points at it.
 */
@Injectable()
export class WriteUnit {
  constructor(
    readonly db: Db,
    private readonly catalog: CollectionCatalog,
    private readonly events: RecordEventBus,
    private readonly counts: CountCache,
    private readonly idempotency: IdempotencyStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly checks: RecordChecks,
  ) {}

  /**
   * What the validated fields of every record a write is about to send must pass, before anything
   * is sent (every write path, REST and MCP, comes here): the key may write each field it sets (API.md
   * section 14), the checks its module registered (a role's grants) and the collection's
   * `checkFields` override (a webhook's target). A 400 naming every problem, each prefixed with its
   * record's `[index]` when `indexed` (a multi-record request), and nothing written.
   */
  async checkFields(meta: CollectionMeta, inputs: readonly Row[], indexed: boolean, access: Access): Promise<void> {
    const hook = meta.def.hooks?.checkFields;
    const problems = await Promise.all(
      inputs.map(async (input) => [
        ...writeProblems(access, meta.plural, input),
        ...this.checks.problems(meta, input),
        ...(hook ? await hook(input, this.config) : []),
      ]),
    );
    const messages = problems.flatMap((list, i) => (indexed ? list.map((m) => `[${i}] ${m}`) : list));
    if (messages.length > 0) throw new BadRequestException(messages);
  }

  /**
   * The frame of a create or an upsert: with an idempotency key, the key is claimed first in the
   * same transaction (a repeated request gets the first answer back and writes nothing) and the
   * answer stored with the write; a constraint error of a multi-record request names its records.
   */
  async create(
    meta: CollectionMeta,
    inputs: Row[],
    options: CreateOptions,
    work: (tx: Queryable) => Promise<Omit<CreateResult, 'replayed'>>,
  ): Promise<CreateResult> {
    const { idempotency } = options;
    try {
      if (options.single && !idempotency) return { ...(await this.single(meta, work)), replayed: false };
      return await this.run(meta, async (tx) => {
        const replay = idempotency && (await this.idempotency.claim(tx, idempotency));
        if (replay) return { records: replay.body as ApiRecord[], replayed: true };
        const result = await work(tx);
        if (idempotency) await this.idempotency.complete(tx, idempotency, { status: 201, body: result.records });
        return { ...result, replayed: false };
      });
    } catch (error) {
      throw options.indexed ? explainBatchError(this.catalog, meta, error, inputs) : error;
    }
  }

  async run<T>(meta: CollectionMeta, work: (tx: Queryable) => Promise<T>, touches: Touches = 'own'): Promise<T> {
    const result = await this.db.transaction(work);
    await this.changed(meta, touches);
    return result;
  }

  /**
   * The frame of a write that is ONE statement (the change and its events as data-modifying
   * CTEs): sent on the pool without BEGIN/COMMIT, since a statement is atomic on its own; reads
   * `work` makes after it (relations of the answer) see it committed.
   */
  async single<T>(meta: CollectionMeta, work: (db: Queryable) => Promise<T>, touches: Touches = 'own'): Promise<T> {
    const result = await work(this.db);
    await this.changed(meta, touches);
    return result;
  }

  private changed(meta: CollectionMeta, touches: Touches): Promise<void> {
    if (touches === 'all') return this.counts.changed(this.catalog.all().map((m) => m.plural));
    return this.counts.changed([meta.plural, ...this.events.writes, ...(touches === 'own' ? [] : touches.also)]);
  }
}
