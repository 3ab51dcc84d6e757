import { Injectable, NotFoundException } from '@nestjs/common';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { recordEvent } from '../events/record-events';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { SqlParams } from '../query/apply-query';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { checkIfMatch, etagOf, IfMatch } from './etag';
import { insertRows } from './insert-rows';
import { VersionedRecord } from './record-reads';
import { RecordShaper } from './record-shaper';
import { EventfulStatements } from './eventful-statements';
import { CreateOptions, CreateResult, WriteUnit } from './write-unit';

export type { CreateOptions, CreateResult };

/**
 * Single and multi-record writes. Each is atomic with its events (audit, timeline, outbox rows
 * written by the subscribers of the event bus), so a failed write leaves nothing. A write that
 * is one statement (the change and its events as CTEs) is sent without BEGIN/COMMIT: one round
 * trip. An idempotency key, an `If-Match` or a batch too large for one statement take a transaction.
 */
@Injectable()
export class RecordWrites {
  constructor(
    private readonly unit: WriteUnit,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly shaper: RecordShaper,
    private readonly statements: EventfulStatements,
    private readonly events: RecordEventBus,
  ) {}

  /**
   * Creates records atomically, in input order (validated inputs, optional `id`). With an
   * idempotency key, the key is claimed first in the same transaction: a repeated request gets
   * the first answer back and writes nothing.
   */
  async create(
    meta: CollectionMeta,
    inputs: Row[],
    shape: Shape,
    actor: RequestActor,
    options: CreateOptions = {},
  ): Promise<CreateResult> {
    await this.unit.checkFields(meta, inputs, options.indexed === true);
    const { columns, tuples, extras } = insertRows(meta, this.codecs.of(meta), inputs, actor);
    const params = new SqlParams();
    const insert = this.repositories.of(meta).insertReturning(columns, tuples, params);
    return this.unit.create(meta, inputs, { ...options, single: insert !== undefined }, async (db) => {
      let rows: Row[];
      if (insert) {
        const events = this.statements.eventsOf(
          meta,
          'created',
          'u',
          'NULL::jsonb',
          this.repositories.bulk(meta).recordJson('r'),
        );
        const byId = new Map(
          (
            await this.statements.run(db, meta, actor, { params, ctes: [`u AS (${insert})`], events, prepared: true })
          ).map((row) => [row.id, row]),
        );
        rows = tuples.map((tuple) => byId.get(tuple[0])!);
      } else {
        // more values than one statement takes: several INSERTs, then the events, in the transaction
        rows = await this.repositories.of(meta).insert(db, columns, tuples);
        await this.events.record(
          db,
          this.shaper.records(meta, rows).map((r) => recordEvent(meta, 'created', undefined, r)),
          actor,
        );
      }
      const shaped = await this.shaper.shape(db, meta, rows, shape);
      return {
        records: shaped.map((record, i) => ({ ...record, ...extras[i] })),
        etag: rows.length === 1 ? etagOf(rows[0]) : undefined,
      };
    });
  }

  /**
   * Partial update: only the fields in `input` change (last write wins, field by field).
   * With `ifMatch`, the locked current row must match it, else 412 and nothing changes.
   */
  async updateOne(
    meta: CollectionMeta,
    id: string,
    input: Row,
    shape: Shape,
    actor: RequestActor,
    ifMatch?: IfMatch,
  ): Promise<VersionedRecord> {
    await this.unit.checkFields(meta, [input], false);
    const repository = this.repositories.of(meta);
    const { columns, values } = this.codecs.of(meta).updateAssignments(input);
    const answer = async (db: Queryable, row: Row | undefined) => {
      if (!row) throw new NotFoundException('Record not found');
      return { record: (await this.shaper.shape(db, meta, [row], shape))[0], etag: etagOf(row) };
    };
    const update = (db: Queryable) => {
      const params = new SqlParams();
      const target = this.repositories.bulk(meta).jsonOfIds(params.add([id]), { live: true, lock: true });
      const statement = this.statements.update(
        meta,
        target,
        columns.map((c) => c.column),
        values,
        params,
      );
      statement.prepared = true;
      return this.statements.run(db, meta, actor, statement);
    };
    if (columns.length === 0) {
      const row = await repository.findLiveForWrite(this.unit.db, id, false);
      if (row) checkIfMatch(ifMatch, row);
      return answer(this.unit.db, row);
    }
    if (ifMatch === undefined) return this.unit.single(meta, async (db) => answer(db, (await update(db))[0]));
    return this.unit.run(meta, async (tx) => {
      const before = await repository.findLiveForWrite(tx, id, true);
      if (!before) throw new NotFoundException('Record not found');
      checkIfMatch(ifMatch, before);
      return answer(tx, (await update(tx))[0]);
    });
  }

  /** Hard delete (returns `{id}`), or soft delete (returns the record). */
  async deleteOne(
    meta: CollectionMeta,
    id: string,
    soft: boolean,
    actor: RequestActor,
    ifMatch?: IfMatch,
  ): Promise<ApiRecord> {
    const bulk = this.repositories.bulk(meta);
    const remove = async (db: Queryable) => {
      const params = new SqlParams();
      const list = params.add([id]);
      const after = bulk.recordJson('r');
      // a soft delete changes deletedAt only: the record before is the same with deletedAt unset
      const [row] = soft
        ? await this.statements.run(db, meta, actor, {
            params,
            ctes: [`u AS (${bulk.setDeletedIds(list, true)})`],
            events: this.statements.eventsOf(meta, 'deleted', 'u', `${after} || '{"deletedAt": null}'::jsonb`, after),
            prepared: true,
          })
        : await this.statements.run(db, meta, actor, {
            params,
            ctes: [`u AS (${bulk.destroyIds(list)})`],
            events: this.statements.eventsOf(meta, 'destroyed', 'u', after, 'NULL::jsonb'),
            answer: { columns: '"id"' },
            prepared: true,
          });
      if (!row) throw new NotFoundException('Record not found');
      return soft ? this.codecs.of(meta).toRecord(row) : { id: row.id };
    };
    const touches = soft ? 'own' : 'all';
    if (!ifMatch) return this.unit.single(meta, remove, touches);
    return this.unit.run(
      meta,
      async (tx: Queryable) => {
        const current = await this.repositories.of(meta).lock(tx, id, soft);
        if (!current) throw new NotFoundException('Record not found');
        checkIfMatch(ifMatch, current);
        return remove(tx);
      },
      touches,
    );
  }

  /** Undoes a soft delete; restoring a live record changes nothing and returns it. */
  async restoreOne(meta: CollectionMeta, id: string, shape: Shape, actor: RequestActor): Promise<VersionedRecord> {
    const bulk = this.repositories.bulk(meta);
    return this.unit.single(meta, async (db) => {
      const params = new SqlParams();
      const list = params.add([id]);
      const events = this.statements.eventsOf(meta, 'restored', 'u', 'NULL::jsonb', bulk.recordJson('r'));
      // the record restored, or as it is when it was live
      const from = `(SELECT * FROM u UNION ALL ${bulk.rowsOfIds(list)} AND NOT EXISTS (SELECT 1 FROM u)) a`;
      const [row] = await this.statements.run(db, meta, actor, {
        params,
        ctes: [`u AS (${bulk.setDeletedIds(list, false)})`],
        events,
        answer: { from },
        prepared: true,
      });
      if (!row) throw new NotFoundException('Record not found');
      return { record: (await this.shaper.shape(db, meta, [row], shape))[0], etag: etagOf(row) };
    });
  }
}
