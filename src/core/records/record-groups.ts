import { Injectable } from '@nestjs/common';
import { redact } from '../access/redact';
import { Db, ReadTarget } from '../database/db';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ColumnRef } from '../model/column-ref';
import { ApiRecord, Row } from '../model/record';
import { whereSql } from '../query/filter-sql';
import { orderBySql } from '../query/sort-sql';
import { SqlParams } from '../query/sql-params';
import { dimensionExpressions, groupBySql } from '../query/group-by-sql';
import { GroupByQuery } from '../query/group-by-query';
import { toIsoTimestamp } from '../repository/record-codec';
import { Repositories } from '../repository/repositories';
import { RecordShaper } from './record-shaper';

/** One group of a group-by answer (Twenty's shape): its dimension values, its count, the aggregates asked for. */
export type Group = { groupByDimensionValues: unknown[]; totalCount: number; records?: ApiRecord[] } & Record<
  string,
  unknown
>;

const SAMPLE_SIZE = 10;

/** A value as the API shows it: timestamps in ISO 8601, numerics as numbers. */
function decode(ref: ColumnRef, value: unknown, asStored: boolean): unknown {
  if (value === null || value === undefined || !asStored) return value ?? null;
  if (ref.type === 'DATE_TIME') return toIsoTimestamp(value);
  if (ref.type === 'NUMERIC') return Number(value);
  return value;
}

/** Group by with aggregates (API.md section 12): one `GROUP BY` statement, plus one for record samples. */
@Injectable()
export class RecordGroups {
  constructor(
    private readonly db: Db,
    private readonly repositories: Repositories,
    private readonly shaper: RecordShaper,
  ) {}

  async groupBy(
    meta: CollectionMeta,
    query: GroupByQuery,
    access: Access,
    reads: ReadTarget = this.db,
  ): Promise<Group[]> {
    const params = new SqlParams();
    const statement = groupBySql(query, params);
    const where = whereSql(meta, query.filter, 'filtered', params);
    const rows = await this.repositories
      .of(meta, access)
      .aggregate(reads, { ...statement, where, limit: query.limit, values: params.values });
    const groups: Group[] = rows.map((row) => {
      const group: Group = {
        groupByDimensionValues: query.dimensions.map((d, i) => decode(d.ref, row[`d${i}`], !d.granularity)),
        totalCount: row.totalCount as number,
      };
      query.aggregates.forEach((a, i) => {
        const stored = a.op === 'min' || a.op === 'max' || a.op === 'sum';
        group[a.key] = decode(a.ref, row[`a${i}`], stored);
      });
      return group;
    });
    if (query.sample) await this.attachSamples(meta, query, groups, access, reads);
    return groups;
  }

  /**
   * The first records (depth 0) of every group in the order of `order_by_for_records` (by id
   * without it), matched to the groups by their dimension values.
   */
  private async attachSamples(
    meta: CollectionMeta,
    query: GroupByQuery,
    groups: Group[],
    access: Access,
    reads: ReadTarget,
  ): Promise<void> {
    const params = new SqlParams();
    const dimensions = dimensionExpressions(query, params);
    const where = whereSql(meta, query.filter, 'filtered', params);
    const rows = await this.repositories.of(meta, access).samples(reads, {
      dimensions,
      where,
      orderBy: orderBySql(query.sampleSort),
      values: params.values,
      perGroup: SAMPLE_SIZE,
    });
    const byGroup = new Map<string, Row[]>();
    for (const row of rows) {
      const key = JSON.stringify(query.dimensions.map((d, i) => decode(d.ref, row[`g${i}`], !d.granularity)));
      byGroup.set(key, [...(byGroup.get(key) ?? []), row]);
    }
    for (const group of groups)
      group.records = this.shaper
        .records(meta, byGroup.get(JSON.stringify(group.groupByDimensionValues)) ?? [])
        .map((record) => redact(meta, record, access));
  }
}
