import { Queryable } from '../database/db';
import { q } from '../database/sql';
import { Row } from '../model/record';
import { filterMentions, filterSql, keysetSql, orderBySql, reverseSort, SqlParams } from '../query/apply-query';
import { encodeCursor } from '../query/cursor';
import { ListQuery } from '../query/list-query';
import { RecordRepository } from '../repository/record-repository';
import { Counter } from './record-counts';

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page {
  rows: Row[];
  pageInfo: PageInfo;
  totalCount: number | null;
}

/**
 * Runs a list query: the page (limit + 1 rows, to know whether another page exists) and the
 * count of rows matching the filter (by `counter`), in parallel.
 */
export async function findPage(
  db: Queryable,
  repository: RecordRepository,
  query: ListQuery,
  cursorKey: Buffer,
  counter: Counter,
): Promise<Page> {
  const params = new SqlParams();
  const conditions: string[] = [];
  if (!filterMentions(query.filter, 'deletedAt')) conditions.push('"deletedAt" IS NULL');
  if (query.filter) conditions.push(filterSql(repository.meta, query.filter, params));
  const countWhere = conditions.join(' AND ');
  const countParams = [...params.values];

  const backward = query.cursor?.before === true;
  const order = backward ? reverseSort(query.sort) : query.sort;
  if (query.cursor) conditions.push(keysetSql(order, query.cursor.values, params));

  const [rows, totalCount] = await Promise.all([
    repository.page(db, {
      where: conditions.join(' AND '),
      orderBy: orderBySql(order),
      limit: query.limit + 1,
      values: params.values,
      extraSelect: query.sort.flatMap((k) => (k.related ? [`${k.related.sql} AS ${q(k.related.output)}`] : [])),
    }),
    counter(countWhere, countParams),
  ]);
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (backward) page.reverse();
  const cursorOf = (row: Row) =>
    encodeCursor(cursorKey, {
      s: query.sortSignature,
      v: query.sort.map((k) => row[k.related?.output ?? k.ref.column] ?? null),
    });
  return {
    rows: page,
    totalCount,
    pageInfo: {
      hasNextPage: backward ? true : more,
      hasPreviousPage: backward ? more : query.cursor !== undefined,
      startCursor: page.length ? cursorOf(page[0]) : null,
      endCursor: page.length ? cursorOf(page[page.length - 1]) : null,
    },
  };
}
