import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Db, Queryable } from '../database/db';
import { CollectionMeta } from '../model/collection-meta';
import {
  COMPACT_LIVE_COUNTS_SQL,
  COUNTED_SQL,
  LIVE_COUNT_SQL,
  LIVE_COUNTS_LOCK,
} from '../repository/live-counts.statements';

/** How often an instance sums the deltas of the live counts, when one of its reads found them many. */
export const LIVE_COUNT_COMPACTION_MS = 5_000;
/** A read that sums more delta rows than this asks for a compaction. */
const MANY_DELTAS = 64;

/**
 * The exact number of live records of a collection without counting them (live-count-triggers.ts):
 * the unfiltered `totalCount` of a list, read from the deltas its table's triggers append. A
 * table without those triggers (a collection whose migration did not add them) is not counted
 * here: its lists count with count(*). An instance whose reads sum many deltas compacts them on
 * its next tick (a workload that writes and never reads the counts leaves them to the first read).
 */
@Injectable()
export class LiveCounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('LiveCounts');
  private readonly counted = new Map<string, Promise<boolean>>();
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private compactionNeeded = false;

  constructor(private readonly db: Db) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.compactionNeeded) return;
      this.compactionNeeded = false;
      this.compact().catch((error: Error) => this.logger.warn(`compaction failed: ${error.message}`));
    }, LIVE_COUNT_COMPACTION_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running?.catch(() => undefined);
  }

  /** The live records of `meta`, or undefined when its table is not counted. */
  async count(meta: CollectionMeta, reads: Queryable = this.db): Promise<number | undefined> {
    let counted = this.counted.get(meta.table);
    if (!counted) {
      counted = this.db.query<{ counted: boolean }>(COUNTED_SQL, [meta.table]).then(([row]) => row.counted);
      this.counted.set(meta.table, counted);
      counted.catch(() => this.counted.delete(meta.table)); // asked again next time
    }
    if (!(await counted)) return undefined;
    const [row] = await reads.query<{ count: number; rows: number }>(LIVE_COUNT_SQL, [meta.table]);
    if (row.rows > MANY_DELTAS) this.compactionNeeded = true;
    return row.count;
  }

  /** One compaction: the number of delta rows summed (one run at a time in this process). */
  compact(): Promise<number> {
    this.running ??= this.db
      .query<{ rows: number }>(COMPACT_LIVE_COUNTS_SQL, [LIVE_COUNTS_LOCK])
      .then(([row]) => row.rows)
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
