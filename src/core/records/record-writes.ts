import { Injectable, NotFoundException } from '@nestjs/common';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { recordEvent } from '../events/record-events';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { checkIfMatch, etagOf, IfMatch } from './etag';
import { insertRows } from './insert-rows';
import { VersionedRecord } from './record-reads';
import { RecordShaper } from './record-shaper';
import { CreateOptions, CreateResult, WriteUnit } from './write-unit';

export type { CreateOptions, CreateResult };

/**
 * Single and multi-record writes. Each runs in one transaction with its events (audit, timeline,
 * outbox rows written by the subscribers of the event bus), so a failed write leaves nothing.
 */
@Injectable()
export class RecordWrites {
  constructor(
    private readonly unit: WriteUnit,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly shaper: RecordShaper,
    private readonly events: RecordEventBus,
  ) {}

  /**
   * Creates records atomically, in input order (validated inputs, optional `id`). With an
   * idempotency key, the key is claimed first in the same transaction: a repeated request gets
   * the first answer back and writes nothing.
   */
  async create(meta: CollectionMeta, inputs: Row[], shape: Shape, actor: RequestActor, options: CreateOptions = {}): Promise<CreateResult> {
    return this.unit.create(meta, inputs, options, async (tx) => {
      const { columns, tuples, extras } = insertRows(meta, this.codecs.of(meta), inputs, actor);
      const rows = await this.repositories.of(meta).insert(tx, columns, tuples);
      await this.events.record(tx, this.shaper.records(meta, rows).map((r) => recordEvent(meta, 'created', undefined, r)), actor);
      const shaped = await this.shaper.shape(tx, meta, rows, shape);
      return { records: shaped.map((record, i) => ({ ...record, ...extras[i] })), etag: rows.length === 1 ? etagOf(rows[0]) : undefined };
    });
  }

  /**
   * Partial update: only the fields in `input` change (last write wins, field by field).
   * With `ifMatch`, the locked current row must match it, else 412 and nothing changes.
   */
  async updateOne(meta: CollectionMeta, id: string, input: Row, shape: Shape, actor: RequestActor, ifMatch?: IfMatch): Promise<VersionedRecord> {
    const repository = this.repositories.of(meta);
    const codec = this.codecs.of(meta);
    return this.unit.run(meta, async (tx) => {
      const { columns, values } = codec.updateAssignments(input);
      const before = await repository.findLiveForWrite(tx, id, columns.length > 0 || ifMatch !== undefined);
      if (!before) throw new NotFoundException('Record not found');
      checkIfMatch(ifMatch, before);
      let row = before;
      if (columns.length > 0) {
        row = (await repository.update(tx, id, columns.map((c) => c.column), values))!;
        await this.events.record(tx, [recordEvent(meta, 'updated', codec.toRecord(before), codec.toRecord(row))], actor);
      }
      return { record: (await this.shaper.shape(tx, meta, [row], shape))[0], etag: etagOf(row) };
    });
  }

  /** Hard delete (returns `{id}`), or soft delete (returns the record). */
  async deleteOne(meta: CollectionMeta, id: string, soft: boolean, actor: RequestActor, ifMatch?: IfMatch): Promise<ApiRecord> {
    const repository = this.repositories.of(meta);
    return this.unit.run(
      meta,
      async (tx: Queryable) => {
        if (ifMatch) {
          const current = await repository.lock(tx, id, soft);
          if (!current) throw new NotFoundException('Record not found');
          checkIfMatch(ifMatch, current);
        }
        const row = soft ? await repository.setDeleted(tx, id, true) : await repository.destroy(tx, id);
        if (!row) throw new NotFoundException('Record not found');
        const record = this.codecs.of(meta).toRecord(row);
        // a soft delete changed deletedAt only: the record before is the same with deletedAt unset
        const before = soft ? { ...record, deletedAt: null } : record;
        await this.events.record(tx, [recordEvent(meta, soft ? 'deleted' : 'destroyed', before, soft ? record : undefined)], actor);
        return soft ? record : { id: row.id };
      },
      soft ? 'own' : 'all',
    );
  }

  /** Undoes a soft delete; restoring a live record changes nothing and returns it. */
  async restoreOne(meta: CollectionMeta, id: string, shape: Shape, actor: RequestActor): Promise<VersionedRecord> {
    const repository = this.repositories.of(meta);
    return this.unit.run(meta, async (tx) => {
      let row = await repository.setDeleted(tx, id, false);
      if (row) await this.events.record(tx, [recordEvent(meta, 'restored', undefined, this.codecs.of(meta).toRecord(row))], actor);
      row ??= await repository.findAny(tx, id);
      if (!row) throw new NotFoundException('Record not found');
      return { record: (await this.shaper.shape(tx, meta, [row], shape))[0], etag: etagOf(row) };
    });
  }
}
