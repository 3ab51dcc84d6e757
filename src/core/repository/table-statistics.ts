import { Queryable } from '../database/db';
import { q } from '../database/sql';

/** The planner's statistics of a table: how many rows it believes it holds, and refreshing them. */
export const tableStatistics = {
  /** The rows the planner's statistics count (0 for a table never analyzed). */
  async estimatedRows(db: Queryable, table: string): Promise<number> {
    const [row] = await db.query<{ rows: number }>(
      'SELECT greatest("reltuples", 0)::float8 AS "rows" FROM "pg_class" WHERE "oid" = $1::regclass',
      [q(table)],
    );
    return row?.rows ?? 0;
  },

  /** Samples the table again (ANALYZE: a few hundred milliseconds whatever its size; allowed in a transaction). */
  async analyze(db: Queryable, table: string): Promise<void> {
    await db.query(`ANALYZE ${q(table)}`);
  },
};
