import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor, Row } from '../model/record';
import { filterMentions, filterSql, SqlParams } from '../query/apply-query';
import { BulkQuery } from '../query/bulk-query';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { EventfulStatements } from './eventful-statements';
import { RecordShaper } from './record-shaper';
import { WriteUnit } from './write-unit';

/** Which records a bulk filter may match: live ones (unless it names deletedAt), or soft-deleted ones only (restore). */
type Scope = 'filter' | 'deleted';

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
    private readonly statements: EventfulStatements,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The compiled condition of the records a bulk filter may match, its values added to `params`. */
  private matchingSql(meta: CollectionMeta, query: BulkQuery, scope: Scope, params: SqlParams): string {
    const conditions = [filterSql(meta, query.filter, params)];
    if (scope === 'deleted') conditions.unshift('"deletedAt" IS NOT NULL');
    else if (!filterMentions(query.filter, 'deletedAt')) conditions.unshift('"deletedAt" IS NULL');
    return conditions.join(' AND ');
  }

  /** 400 (the transaction rolls back: nothing changed) when more than BULK_MAX records match. */
  private async refuseTooMany(tx: Queryable, meta: CollectionMeta, where: string, values: unknown[]): Promise<void> {
    const max = this.config.bulkMax;
    const matched = await this.repositories.of(meta).count(tx, where, values);
    if (matched > max)
      throw new BadRequestException(`The filter matches ${matched} records; at most ${max} per request`);
  }

  /** Ids of the records a filter matches, locked, in order; 400 (nothing changed) when they are more than BULK_MAX. */
  private async lockMatches(tx: Queryable, meta: CollectionMeta, query: BulkQuery, scope: Scope): Promise<string[]> {
    const params = new SqlParams();
    const where = this.matchingSql(meta, query, scope, params);
    const max = this.config.bulkMax;
    const ids = await this.repositories.bulk(meta).lockMatching(tx, where, params.values, max + 1);
    if (ids.length > max) await this.refuseTooMany(tx, meta, where, params.values);
    return ids;
  }

  /**
   * Applies the same partial update to every matching record; the records after, by id. One
   * statement finds the matches, locks them (in id order), updates them unless they are more than
   * BULK_MAX, and writes their events; no answer row means no match or too many (one count tells).
   */
  async updateMany(meta: CollectionMeta, query: BulkQuery, input: Row, actor: RequestActor): Promise<ApiRecord[]> {
    await this.unit.checkFields(meta, [input], false);
    const codec = this.codecs.of(meta);
    const bulk = this.repositories.bulk(meta);
    return this.unit.run(meta, async (tx) => {
      const { columns, values } = codec.updateAssignments(input);
      if (columns.length === 0) {
        const ids = await this.lockMatches(tx, meta, query, 'filter');
        return ids.length === 0 ? [] : this.shaper.shape(tx, meta, await bulk.findByIds(tx, ids), query);
      }
      const max = this.config.bulkMax;
      const params = new SqlParams();
      const where = this.matchingSql(meta, query, 'filter', params);
      const filterValues = params.values.slice();
      const statement = this.statements.update(
        meta,
        bulk.jsonMatching(where, max + 1),
        columns.map((c) => c.column),
        values,
        params,
        max,
      );
      await bulk.reserveMemory(tx, max);
      const rows = await this.statements.run(tx, meta, actor, statement);
      if (rows.length === 0) await this.refuseTooMany(tx, meta, where, filterValues);
      return this.shaper.shape(tx, meta, rows, query);
    });
  }

  /** Hard delete (`[{id}]`) or soft delete (the records) of every matching record, by id. */
  async deleteMany(meta: CollectionMeta, query: BulkQuery, soft: boolean, actor: RequestActor): Promise<ApiRecord[]> {
    const bulk = this.repositories.bulk(meta);
    return this.unit.run(
      meta,
      async (tx) => {
        const ids = await this.lockMatches(tx, meta, query, 'filter');
        if (ids.length === 0) return [];
        const params = new SqlParams();
        const list = params.add(ids);
        await bulk.reserveMemory(tx, ids.length);
        if (!soft) {
          const events = this.statements.eventsOf(meta, 'destroyed', 'u', bulk.recordJson('r'), 'NULL::jsonb');
          const rows = await this.statements.run(tx, meta, actor, {
            params,
            ctes: [`u AS (${bulk.destroyIds(list)})`],
            events,
            answer: { columns: '"id"' },
          });
          return rows.map((row) => ({ id: row.id }));
        }
        // records already soft-deleted (a filter naming deletedAt) stay as they are, and are answered too
        const after = bulk.recordJson('r');
        const events = this.statements.eventsOf(
          meta,
          'deleted',
          'changed',
          `${after} || '{"deletedAt": null}'::jsonb`,
          after,
        );
        const ctes = [
          `changed AS (${bulk.setDeletedIds(list, true)})`,
          `u AS (SELECT * FROM changed UNION ALL SELECT * FROM (${bulk.rowsOfIds(list)}) unchanged WHERE "id" NOT IN (SELECT "id" FROM changed))`,
        ];
        const rows = await this.statements.run(tx, meta, actor, { params, ctes, events });
        return this.shaper.shape(tx, meta, rows, query);
      },
      soft ? 'own' : 'all',
    );
  }

  /** Restores every soft-deleted record the filter matches; the records, by id. */
  async restoreMany(meta: CollectionMeta, query: BulkQuery, actor: RequestActor): Promise<ApiRecord[]> {
    const bulk = this.repositories.bulk(meta);
    return this.unit.run(meta, async (tx) => {
      const ids = await this.lockMatches(tx, meta, query, 'deleted');
      if (ids.length === 0) return [];
      const params = new SqlParams();
      await bulk.reserveMemory(tx, ids.length);
      const events = this.statements.eventsOf(meta, 'restored', 'u', 'NULL::jsonb', bulk.recordJson('r'));
      const rows = await this.statements.run(tx, meta, actor, {
        params,
        ctes: [`u AS (${bulk.setDeletedIds(params.add(ids), false)})`],
        events,
      });
      return this.shaper.shape(tx, meta, rows, query);
    });
  }
}
