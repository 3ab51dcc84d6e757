import { Queryable } from '../database/db';
import { Row } from '../model/record';
import { encodeCursor } from '../query/cursor';
import { ListQuery } from '../query/list-query';
import { listSql } from '../query/list-sql';
import { RecordRepository } from '../repository/record-repository';
import { Count, Counter } from './record-counts';

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Page {
  rows: Row[];
  pageInfo: PageInfo;
  count: Count;
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
  const list = listSql(repository.table.meta, query);
  const [rows, count] = await Promise.all([repository.page(db, list), counter(list.count.where, list.count.values)]);
  const more = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (list.backward) page.reverse();
  const cursorOf = (row: Row) =>
    encodeCursor(cursorKey, {
      s: query.sortSignature,
      v: query.sort.map((k) => row[k.related?.output ?? k.ref.column] ?? null),
    });
  return {
    rows: page,
    count,
    pageInfo: {
      hasNextPage: list.backward ? true : more,
      hasPreviousPage: list.backward ? more : query.cursor !== undefined,
      startCursor: page.length ? cursorOf(page[0]) : null,
      endCursor: page.length ? cursorOf(page[page.length - 1]) : null,
    },
  };
}
