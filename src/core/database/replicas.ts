import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool, QueryConfig } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { replicaPoolOptions } from './data-source-options';
import { Db, Queryable } from './db';
import { isBadInputError, PgError } from './db-errors';

/** WAL position in bytes (`pg_lsn - '0/0'`): what a primary has written, what a replica has replayed. */
const PRIMARY_POSITION_SQL = `SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::float8 AS "position"`;
const REPLICA_HEALTH_SQL =
  `SELECT pg_is_in_recovery() AS "recovery", ` +
  `(coalesce(pg_last_wal_replay_lsn(), '0/0'::pg_lsn) - '0/0'::pg_lsn)::float8 AS "position"`;

/** A replica's pool, what its last health check found, and how many reads it served. */
export class Replica {
  healthy = false;
  /** WAL bytes it had replayed at its last health check. */
  replayed = 0;
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

/**
 * The read replicas of `DATABASE_REPLICA_URLS` (API.md section 19) and their health. Every
 * quarter of a second (never per request) it reads the primary's WAL position and each replica's
 * replayed position, with `REPLICA_TIMEOUT_MS` to answer: a replica is healthy when it answers in
 * time, is in recovery, and has replayed what the primary had written `REPLICA_MAX_LAG_MS` ago.
 * A read request gets a healthy replica that has replayed its key's last write (`target`), else
 * the primary; a statement that fails on the replica is answered by the primary. An export
 * streams from the replica's pool, and its feed token is computed on the primary from the
 * replica's snapshot (ChangeFeed.tokenOfSnapshot: the xids it sees are the primary's).
 */
@Injectable()
export class Replicas implements OnApplicationBootstrap, OnApplicationShutdown {
  readonly replicas: Replica[];
  private readonly logger = new Logger('Replicas');
  /** The primary's WAL position over the last REPLICA_MAX_LAG_MS and a bit, oldest first. */
  private readonly samples: { at: number; position: number }[] = [];
  private timer?: NodeJS.Timeout;
  private next = 0;
  /** Read requests given a replica, and those given the primary (no healthy replica had the key's writes). */
  replicaRoutes = 0;
  primaryReads = 0;

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.replicas = config.database.replicaUrls.map((url) => {
      const pool = new Pool({ connectionString: url, ...replicaPoolOptions(config) });
      const parsed = new URL(url);
      const replica = new Replica(`${parsed.host}${parsed.pathname}`, pool);
      // a dropped idle connection of a replica must not crash the process
      pool.on('error', (error) => this.logger.warn(`replica ${replica.name}: idle connection error: ${error.message}`));
      return replica;
    });
  }

  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    void this.checkAll();
    this.timer = setInterval(() => void this.checkAll(), 250);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.replicas.map((r) => r.pool.end().catch(() => undefined)));
  }

  /** The primary's WAL position now (after a write request's COMMIT: what its key must see). */
  async primaryPosition(): Promise<number> {
    const [row] = await this.db.query<{ position: number }>(PRIMARY_POSITION_SQL);
    return row.position;
  }

  /** Where a read request of a key whose last write is at `position` reads: a replica, or the primary (undefined). */
  target(position: number): Queryable | undefined {
    const ready = this.replicas.filter((r) => r.healthy && r.replayed >= position);
    if (ready.length === 0) {
      this.primaryReads++;
      return undefined;
    }
    this.replicaRoutes++;
    const replica = ready[this.next++ % ready.length];
    return new ReplicaReads(replica, this, this.db, this.config.database.replicaTimeoutMs);
  }

  /** A read failed or timed out on `replica`: no more reads until a health check passes. */
  suspect(replica: Replica, error: PgError): void {
    replica.fallbacks++;
    if (replica.healthy)
      this.logger.warn(`replica ${replica.name}: read failed (${error.message}); reads go elsewhere`);
    replica.healthy = false;
  }

  private async checkAll(): Promise<void> {
    const now = Date.now();
    try {
      this.samples.push({ at: now, position: await this.primaryPosition() });
    } catch {
      /* the primary is away: the replicas are judged on the samples there are */
    }
    const horizon = now - this.config.database.replicaMaxLagMs;
    while (this.samples.length > 1 && this.samples[1].at <= horizon) this.samples.shift();
    // what the primary had written REPLICA_MAX_LAG_MS ago (the oldest sample while there is no older)
    const required = this.samples[0]?.position ?? Infinity;
    await Promise.all(
      this.replicas.map(async (replica) => {
        const health = await replica.check(this.config.database.replicaTimeoutMs);
        if (health) replica.replayed = health.position;
        const healthy = !!health && health.recovery && health.position >= required;
        if (healthy !== replica.healthy)
          this.logger.log(`replica ${replica.name} is ${healthy ? 'healthy' : 'unhealthy'}: ${why(health, required)}`);
        replica.healthy = healthy;
      }),
    );
  }
}

function why(health: { recovery: boolean; position: number } | undefined, required: number): string {
  if (!health) return 'no answer in time';
  if (!health.recovery) return 'not in recovery (promoted?)';
  return health.position >= required ? 'lag within the limit' : `replayed ${required - health.position} bytes too few`;
}

/** The reads of one request on a replica; a statement that fails there is answered by the primary. */
class ReplicaReads implements Queryable {
  constructor(
    private readonly replica: Replica,
    private readonly replicas: Replicas,
    private readonly primary: Db,
    private readonly timeoutMs: number,
  ) {}

  /** The replica's pool: an export streams from it in a snapshot of its own (no timeout). */
  get pool(): Pool {
    return this.replica.pool;
  }

  async query<R>(text: string, values?: unknown[]): Promise<R[]> {
    try {
      const { rows } = await this.replica.pool.query({ text, values, query_timeout: this.timeoutMs } as QueryConfig);
      this.replica.reads++;
      return rows as R[];
    } catch (error) {
      // the same statement would fail the same way on the primary
      if (isBadInputError(error as PgError)) throw error;
      this.replicas.suspect(this.replica, error as PgError);
      return this.primary.query<R>(text, values);
    }
  }
}
