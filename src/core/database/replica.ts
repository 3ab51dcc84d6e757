import { Pool, QueryConfig } from 'pg';

/** What a replica has replayed, in WAL bytes (`pg_lsn - '0/0'`). */
export const REPLAYED = `(coalesce(pg_last_wal_replay_lsn(), '0/0'::pg_lsn) - '0/0'::pg_lsn)::float8 AS "position"`;
const REPLICA_HEALTH_SQL = `SELECT pg_is_in_recovery() AS "recovery", ${REPLAYED}`;

/** A replica's pool, what its last health check found, and how many reads it served. */
export class Replica {
  healthy = false;
  /** WAL bytes it had replayed at its last health check, and had still to replay then (metrics). */
  replayed = 0;
  lagBytes = 0;
  reads = 0;
  /** Reads it failed (or was too slow for), answered by the primary instead. */
  fallbacks = 0;
  private checking = false;

  constructor(
    /** `host:port/database` of its URL, without credentials (logs). */
    readonly name: string,
    readonly pool: Pool,
  ) {}

  /** Runs the health check unless one is under way; false when it did not answer in time. */
  async check(timeoutMs: number): Promise<{ recovery: boolean; position: number } | undefined> {
    if (this.checking) return undefined;
    this.checking = true;
    try {
      const { rows } = await this.pool.query({ text: REPLICA_HEALTH_SQL, query_timeout: timeoutMs } as QueryConfig);
      return rows[0] as { recovery: boolean; position: number };
    } catch {
      return undefined;
    } finally {
      this.checking = false;
    }
  }
}
