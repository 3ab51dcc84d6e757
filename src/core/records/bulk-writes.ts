import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { recordEvent } from '../events/record-events';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { filterMentions, filterSql, SqlParams } from '../query/apply-query';
import { BulkQuery } from '../query/bulk-query';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { RecordShaper } from './record-shaper';
import { WriteUnit } from './write-unit';

/** Which records a bulk filter may match: live ones (unless it names deletedAt), or soft-deleted ones only (restore). */
type Scope = 'filter' | 'deleted';

const byId = (a: Row, b: Row) => (String(a.id) < String(b.id) ? -1 : String(a.id) > String(b.id) ? 1 : 0);

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
  ) {}

  /** The records a filter matches, locked, by id; 400 (nothing changed) when they are more than BULK_MAX. */
  private async lockMatches(tx: Queryable, meta: CollectionMeta, query: BulkQuery, scope: Scope): Promise<Row[]> {
    const params = new SqlParams();
    const conditions = [filterSql(meta, query.filter, params)];
    if (scope === 'deleted') conditions.unshift('"deletedAt" IS NOT NULL');
    else if (!filterMentions(query.filter, 'deletedAt')) conditions.unshift('"deletedAt" IS NULL');
    const where = conditions.join(' AND ');
    const max = this.config.bulkMax;
    const rows = await this.repositories.bulk(meta).lockMatching(tx, where, params.values, max + 1);
    if (rows.length > max) {
      const matched = await this.repositories.of(meta).count(tx, where, params.values);
      throw new BadRequestException(`The filter matches ${matched} records; at most ${max} per request`);
    }
    return rows;
  }

  /** Applies the same partial update to every matching record; the records after, by id. */
  async updateMany(meta: CollectionMeta, query: BulkQuery, input: Row, actor: RequestActor): Promise<ApiRecord[]> {
    const codec = this.codecs.of(meta);
    return this.unit.run(meta, async (tx) => {
      const before = await this.lockMatches(tx, meta, query, 'filter');
      const { columns, values } = codec.updateAssignments(input);
      if (before.length === 0 || columns.length === 0) return this.shaper.shape(tx, meta, before, query);
      const after = (await this.repositories.bulk(meta).updateByIds(tx, before.map((r) => r.id as string), columns.map((c) => c.column), values)).sort(byId);
      const events = after
        .map((row, i) => recordEvent(meta, 'updated', codec.toRecord(before[i]), codec.toRecord(row)))
        .filter((event) => event.updatedFields!.length > 0);
      await this.events.record(tx, events, actor);
      return this.shaper.shape(tx, meta, after, query);
    });
  }

  /** Hard delete (`[{id}]`) or soft delete (the records) of every matching record, by id. */
  async deleteMany(meta: CollectionMeta, query: BulkQuery, soft: boolean, actor: RequestActor): Promise<ApiRecord[]> {
    const codec = this.codecs.of(meta);
    return this.unit.run(
      meta,
      async (tx) => {
        const matched = await this.lockMatches(tx, meta, query, 'filter');
        if (matched.length === 0) return [];
        const ids = matched.map((r) => r.id as string);
        const bulk = this.repositories.bulk(meta);
        if (!soft) {
          const rows = (await bulk.destroyByIds(tx, ids)).sort(byId);
          await this.events.record(tx, rows.map((row) => recordEvent(meta, 'destroyed', codec.toRecord(row))), actor);
          return rows.map((row) => ({ id: row.id }));
        }
        // records already soft-deleted (a filter naming deletedAt) stay as they are
        const changed = new Map((await bulk.setDeletedByIds(tx, ids, true)).map((row) => [row.id, row]));
        const events = [...changed.values()].map((row) => {
          const record = codec.toRecord(row);
          return recordEvent(meta, 'deleted', { ...record, deletedAt: null }, record);
        });
        await this.events.record(tx, events, actor);
        return this.shaper.shape(tx, meta, matched.map((row) => changed.get(row.id) ?? row), query);
      },
      soft ? 'own' : 'all',
    );
  }

  /** Restores every soft-deleted record the filter matches; the records, by id. */
  async restoreMany(meta: CollectionMeta, query: BulkQuery, actor: RequestActor): Promise<ApiRecord[]> {
    const codec = this.codecs.of(meta);
    return this.unit.run(meta, async (tx) => {
      const matched = await this.lockMatches(tx, meta, query, 'deleted');
      if (matched.length === 0) return [];
      const rows = (await this.repositories.bulk(meta).setDeletedByIds(tx, matched.map((r) => r.id as string), false)).sort(byId);
      await this.events.record(tx, rows.map((row) => recordEvent(meta, 'restored', undefined, codec.toRecord(row))), actor);
      return this.shaper.shape(tx, meta, rows, query);
    });
  }
}
