import { Queryable } from '../database/db';
import { tableStatistics } from '../repository/table-statistics';

/** Rows an import writes before the table's statistics are worth refreshing, whatever its size. */
const AT_LEAST = 10_000;

/**
 * The statistics of the table an import grows, kept in step with it. A checkpoint looks up its
 * rows' records by key (`= ANY` of a checkpoint's values), planned from the table's statistics;
 * autovacuum refreshes them only once a tenth of the table changed, at most once a minute (and
 * never where it is off), so an import that grows a table ten-fold would be planned as for the
 * small table it started with: a scan of the whole table per checkpoint, a cost growing with the
 * file. So each time the job has written as many rows as the table held (and at least AT_LEAST),
 * the table is analyzed again: a handful of times in a whole import, on the job's connection.
 */
export class GrowingTable {
  private written = 0;

  private constructor(
    private readonly table: string,
    private known: number,
  ) {}

  static async of(db: Queryable, table: string): Promise<GrowingTable> {
    return new GrowingTable(table, await tableStatistics.estimatedRows(db, table));
  }

  /** Counts rows a checkpoint wrote (`db`: where they are visible); analyzes the table once they matter. */
  async wrote(db: Queryable, rows: number): Promise<void> {
    this.written += rows;
    if (this.written < Math.max(AT_LEAST, this.known)) return;
    await tableStatistics.analyze(db, this.table);
    this.known += this.written;
    this.written = 0;
  }
}
