import { Injectable, NotFoundException } from '@nestjs/common';
import { redact } from '../access/redact';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { recordEvent } from '../model/record-events';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { KeyRing } from '../security/keys';
import { checkIfMatch, etagOf, IfMatch } from './etag';
import { insertRows } from './insert-rows';
import { VersionedRecord } from './record-reads';
import { RecordReferences } from './record-references';
import { RecordShaper } from './record-shaper';
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
    private readonly events: RecordEventBus,
    private readonly keys: KeyRing,
    private readonly references: RecordReferences,
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
    await this.unit.checkFields(meta, inputs, options.indexed === true, actor.access);
    const { columns, tuples, extras } = insertRows(meta, this.codecs.of(meta), inputs, actor);
    const write = this.repositories.writes(meta, actor.access).create(columns, tuples);
    return this.unit.create(meta, inputs, { ...options, single: write !== undefined }, async (db) => {
      let rows: Row[];
      if (write) {
        const byId = new Map((await this.events.write(db, write, actor)).map((row) => [row.id, row]));
        rows = tuples.map((tuple) => byId.get(tuple[0])!);
      } else {
        // more values than one statement takes: several INSERTs, then the events, in the transaction
        const steps = this.repositories.steps(meta, actor.access);
        rows = await steps.insertMany(db, columns, tuples);
        await steps.requireInScope(
          db,
          rows.map((row) => row.id as string),
        );
        const events = this.shaper.records(meta, rows).map((r) => recordEvent(meta, 'created', undefined, r));
        await this.events.record(db, events, actor);
      }
      const shaped = await this.shaper.shape(db, meta, rows, shape, actor.access);
      return {
        records: shaped.map((record, i) => ({ ...record, ...extras[i] })),
        etag: rows.length === 1 ? etagOf(rows[0], this.keys.etagKey) : undefined,
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
    await this.unit.checkFields(meta, [input], false, actor.access);
    const { access } = actor;
    const steps = this.repositories.steps(meta, access);
    const { columns, values } = this.codecs.of(meta).updateAssignments(input);
    const answer = async (db: Queryable, row: Row | undefined) => {
      if (!row) throw new NotFoundException('Record not found');
      return {
        record: (await this.shaper.shape(db, meta, [row], shape, access))[0],
        etag: etagOf(row, this.keys.etagKey),
      };
    };
    const update = async (db: Queryable) => {
      const write = this.repositories.writes(meta, access).update(
        { ids: [id] },
        columns.map((c) => c.column),
        values,
      );
      return (await this.events.write(db, write, actor))[0];
    };
    if (columns.length === 0) {
      const row = await steps.findLiveForWrite(this.unit.db, id, false);
      if (row) checkIfMatch(ifMatch, row, this.keys.etagKey);
      return answer(this.unit.db, row);
    }
    if (ifMatch === undefined) return this.unit.single(meta, async (db) => answer(db, await update(db)));
    return this.unit.run(meta, async (tx) => {
      const before = await steps.findLiveForWrite(tx, id, true);
      if (!before) throw new NotFoundException('Record not found');
      checkIfMatch(ifMatch, before, this.keys.etagKey);
      return answer(tx, await update(tx));
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
    const remove = async (db: Queryable) => {
      const writes = this.repositories.writes(meta, actor.access);
      const write = soft ? writes.softDelete([id], 'one') : writes.destroy([id], 'one');
      const [row] = await this.events.write(db, write, actor);
      if (!row) throw new NotFoundException('Record not found');
      return soft ? redact(meta, this.codecs.of(meta).toRecord(row), actor.access) : { id: row.id };
    };
    const touches = soft ? 'own' : 'all';
    try {
      if (!soft) await this.references.refuseInUse(this.unit.db, meta, [id]);
      if (!ifMatch) return await this.unit.single(meta, remove, touches);
      return await this.unit.run(
        meta,
        async (tx: Queryable) => {
          const current = await this.repositories.steps(meta, actor.access).lockOne(tx, id, soft);
          if (!current) throw new NotFoundException('Record not found');
          checkIfMatch(ifMatch, current, this.keys.etagKey);
          return remove(tx);
        },
        touches,
      );
    } catch (error) {
      throw soft ? error : await this.references.explain(this.unit.db, meta, [id], error);
    }
  }

  /** Undoes a soft delete; restoring a live record changes nothing and returns it. */
  async restoreOne(meta: CollectionMeta, id: string, shape: Shape, actor: RequestActor): Promise<VersionedRecord> {
    return this.unit.single(meta, async (db) => {
      const [row] = await this.events.write(
        db,
        this.repositories.writes(meta, actor.access).restore([id], 'one'),
        actor,
      );
      if (!row) throw new NotFoundException('Record not found');
      return {
        record: (await this.shaper.shape(db, meta, [row], shape, actor.access))[0],
        etag: etagOf(row, this.keys.etagKey),
      };
    });
  }
}
