import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { BulkQuery } from '../query/bulk-query';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { FilterTarget } from '../repository/transaction-steps';
import { RecordReferences } from './record-references';
import { RecordShaper } from './record-shaper';
import { WriteUnit } from './write-unit';

/**
 * Update, delete and restore many by filter (API.md section 11), set-based: whatever the number
 * of records, one transaction of a fixed number of statements (lock the matches, change them,
 * write their events, load the relations asked for). At most BULK_MAX records per request.
 */
@Injectable()
export class RecordBulkWrites {
  constructor(
    private readonly unit: WriteUnit,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly shaper: RecordShaper,
    private readonly events: RecordEventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly references: RecordReferences,
  ) {}

  /** 400 (the transaction rolls back: nothing changed) when more than BULK_MAX records match. */
  private async refuseTooMany(
    tx: Queryable,
    meta: CollectionMeta,
    target: FilterTarget,
    access: Access,
  ): Promise<void> {
    const max = this.config.bulkMax;
    const matched = await this.repositories.steps(meta, access).countMatching(tx, target);
    if (matched > max)
      throw new BadRequestException(`The filter matches ${matched} records; at most ${max} per request`);
  }

  /** Ids of the records of `target`, locked, in order; 400 (nothing changed) when they are more than BULK_MAX. */
  private async lockMatches(
    tx: Queryable,
    meta: CollectionMeta,
    target: FilterTarget,
    access: Access,
  ): Promise<string[]> {
    const ids = await this.repositories.steps(meta, access).lockMatching(tx, target, this.config.bulkMax + 1);
    if (ids.length > this.config.bulkMax) await this.refuseTooMany(tx, meta, target, access);
    return ids;
  }

  /**
   * Applies the same partial update to every matching record; the records after, by id. One
   * statement finds the matches, locks them (in id order), updates them unless they are more than
   * BULK_MAX, and writes their events; no answer row means no match or too many (one count tells).
   */
  async updateMany(meta: CollectionMeta, query: BulkQuery, input: Row, actor: RequestActor): Promise<ApiRecord[]> {
    await this.unit.checkFields(meta, [input], false, actor.access);
    const codec = this.codecs.of(meta);
    const { access } = actor;
    const steps = this.repositories.steps(meta, access);
    const target: FilterTarget = { filter: query.filter, scope: 'filtered' };
    return this.unit.run(meta, async (tx) => {
      const { columns, values } = codec.updateAssignments(input);
      if (columns.length === 0) {
        const ids = await this.lockMatches(tx, meta, target, access);
        return ids.length === 0 ? [] : this.shaper.shape(tx, meta, await steps.findByIds(tx, ids), query, access);
      }
      const limit = this.config.bulkMax + 1;
      const write = this.repositories.writes(meta, access).update(
        { filter: query.filter, limit },
        columns.map((c) => c.column),
        values,
      );
      await steps.reserveMemory(tx, this.config.bulkMax);
      const rows = await this.events.write(tx, write, actor);
      if (rows.length === 0) await this.refuseTooMany(tx, meta, target, access);
      return this.shaper.shape(tx, meta, rows, query, access);
    });
  }

  /** Hard delete (`[{id}]`) or soft delete (the records) of every matching record, by id. */
  async deleteMany(meta: CollectionMeta, query: BulkQuery, soft: boolean, actor: RequestActor): Promise<ApiRecord[]> {
    let ids: string[] = [];
    const work = this.unit.run(
      meta,
      async (tx) => {
        ids = await this.lockMatches(tx, meta, { filter: query.filter, scope: 'filtered' }, actor.access);
        if (ids.length === 0) return [];
        await this.repositories.steps(meta, actor.access).reserveMemory(tx, ids.length);
        const writes = this.repositories.writes(meta, actor.access);
        if (!soft) {
          await this.references.refuseInUse(tx, meta, ids);
          const rows = await this.events.write(tx, writes.destroy(ids, 'many'), actor);
          return rows.map((row) => ({ id: row.id }));
        }
        // records already soft-deleted (a filter naming deletedAt) stay as they are, and are answered too
        const rows = await this.events.write(tx, writes.softDelete(ids, 'many'), actor);
        return this.shaper.shape(tx, meta, rows, query, actor.access);
      },
      soft ? 'own' : 'all',
    );
    return work.catch(async (error) => {
      throw soft ? error : await this.references.explain(this.unit.db, meta, ids, error);
    });
  }

  /** Restores every soft-deleted record the filter matches; the records, by id. */
  async restoreMany(meta: CollectionMeta, query: BulkQuery, actor: RequestActor): Promise<ApiRecord[]> {
    return this.unit.run(meta, async (tx) => {
      const ids = await this.lockMatches(tx, meta, { filter: query.filter, scope: 'deleted' }, actor.access);
      if (ids.length === 0) return [];
      await this.repositories.steps(meta, actor.access).reserveMemory(tx, ids.length);
      const write = this.repositories.writes(meta, actor.access).restore(ids, 'many');
      const rows = await this.events.write(tx, write, actor);
      return this.shaper.shape(tx, meta, rows, query, actor.access);
    });
  }
}
