import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Pool, PoolClient, QueryConfig } from 'pg';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { replicaPoolOptions } from './data-source-options';
import { Db, ReadTarget } from './db';
import { isBadInputError, PgError } from './db-errors';
import { REPLAYED, Replica } from './replica';

export { Replica };

/** WAL position in bytes (`pg_lsn - '0/0'`): what a primary has written, what a replica has replayed. */
const PRIMARY_POSITION_SQL = `SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::float8 AS "position"`;
const REPLAYED_SQL = `SELECT ${REPLAYED}`;

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
  /** Statements of routed requests whose replica connection had not replayed enough: answered by the primary. */
  behind = 0;

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
    return (await this.db.query<{ position: number }>(PRIMARY_POSITION_SQL))[0].position;
  }

  /** Where a read request of a key whose last write is at `position` reads: a replica, or the primary (undefined). */
  target(position: number): ReadTarget | undefined {
    // the replica's last check is a hint (a URL may lead to several servers, as a Kubernetes -ro
    // service does): each connection proves it has replayed what the request needs before it reads
    const ready = this.replicas.filter((r) => r.healthy && r.replayed >= position);
    if (ready.length === 0) {
      this.primaryReads++;
      return undefined;
    }
    this.replicaRoutes++;
    const replica = ready[this.next++ % ready.length];
    const required = Math.max(position, this.samples[0]?.position ?? 0);
    return new ReplicaReads(replica, this, this.db, this.config.database.replicaTimeoutMs, required, position > 0);
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
        replica.lagBytes = Math.max(0, (this.samples[this.samples.length - 1]?.position ?? 0) - replica.replayed);
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

/** What each replica connection had replayed when it last said (it only moves forward on one server). */
const replayedBy = new WeakMap<PoolClient, number>();

/**
 * The reads of one request on a replica. Each statement runs on a connection that has replayed
 * `required` (the key's last write, and what the primary had written REPLICA_MAX_LAG_MS ago): a
 * connection asks its server once, and again only when the request needs more than it last said.
 * A connection behind, a failure or a timeout: the statement is answered by the primary.
 */
class ReplicaReads implements ReadTarget {
  constructor(
    private readonly replica: Replica,
    private readonly replicas: Replicas,
    private readonly primary: Db,
    private readonly timeoutMs: number,
    private readonly required: number,
    private readonly wrote: boolean,
  ) {}

  /**
   * The pool an export streams from (in a snapshot of its own, without a timeout): the replica's
   * for a key with no recent write, else the primary's (an export's connection is not checked).
   */
  get pool(): Pool {
    return this.wrote ? this.primary.pool : this.replica.pool;
  }

  async query<R>(text: string, values?: unknown[]): Promise<R[]> {
    return (await this.onReplica<R>(text, values)) ?? this.primary.query<R>(text, values);
  }

  /** The statement's rows from the replica; undefined when the primary must answer it. */
  private async onReplica<R>(text: string, values?: unknown[]): Promise<R[] | undefined> {
    let client: PoolClient | undefined;
    let broken: Error | undefined; // the connection is closed, not reused: it may be frozen or mid-statement
    const onError = (error: Error) => (broken = error); // one that dies while checked out: no crash
    try {
      client = await this.replica.pool.connect();
      client.on('error', onError);
      if (!(await this.caughtUp(client))) return undefined;
      const { rows } = await client.query({ text, values, query_timeout: this.timeoutMs } as QueryConfig);
      this.replica.reads++;
      return rows as R[];
    } catch (error) {
      if (isBadInputError(error as PgError)) throw error; // the primary would refuse it the same way
      broken ??= error as Error;
      this.replicas.suspect(this.replica, error as PgError);
      return undefined;
    } finally {
      client?.off('error', onError);
      client?.release(broken);
    }
  }

  /** Whether `client`'s server has replayed what the request needs (one behind is counted). */
  private async caughtUp(client: PoolClient): Promise<boolean> {
    if ((replayedBy.get(client) ?? -1) >= this.required) return true;
    const { rows } = await client.query({ text: REPLAYED_SQL, query_timeout: this.timeoutMs } as QueryConfig);
    replayedBy.set(client, (rows[0] as { position: number }).position);
    if (replayedBy.get(client)! >= this.required) return true;
    this.replicas.behind++;
    return false;
  }
}
