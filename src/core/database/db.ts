import { Client, ClientConfig, Pool, PoolClient, QueryConfig } from 'pg';
import { DirectConnections } from './direct-connections';
import { READ_ONLY_SQLSTATE } from './writable-primary';

/** Something SQL can be sent to: the pool, or the client of an open transaction. */
export interface Queryable {
  /**
   * Runs one statement with bound parameters. `name` makes it a named prepared statement
   * (parsed once per connection); use it only for statements whose text never changes.
   */
  query<R = Record<string, unknown>>(text: string, values?: unknown[], name?: string): Promise<R[]>;
  /** Inside a transaction: runs `hook` once it has committed (never when it rolls back). */
  afterCommit?(hook: () => void): void;
}

/**
 * How `Db` uses its pool's connections (API.md section 19), all off by default.
 * - `preparedStatements: false`: statement names are dropped (every statement unnamed), for a
 *   transaction-mode pooler that cannot carry protocol-level named statements.
 * - `pooled`: behind a transaction-mode pooler. Each transaction starts with `SET LOCAL
 *   statement_timeout` (the connections carry no session timeout: the pooler refuses it at
 *   startup), and statements are cancelled by cancel requests, which the pooler forwards (the
 *   backend ids it gives are its own, not the server's).
 * - `direct`: a direct connection to the primary for session advisory locks (not through a pooler).
 */
export interface DbOptions {
  preparedStatements?: boolean;
  pooled?: { statementTimeoutMs: number };
  direct?: ClientConfig;
  /** Told each statement's text and duration in seconds, once it is answered or has failed (metrics). */
  observe?: (text: string, seconds: number) => void;
}

type Send = <R>(target: Pool | PoolClient, text: string, values?: unknown[], name?: string) => Promise<R[]>;

type CancelRequest = { cancel(client: PoolClient, query: unknown): void };

/** The connection at fault is unusable for writes (a standby): it is dropped, not returned to the pool. */
const dropsConnection = (error: unknown) => (error as { code?: string }).code === READ_ONLY_SQLSTATE;

/**
 * Where a read request's statements go (API.md section 19): the primary (`Db` itself) or a
 * replica's reads, which the HTTP edge chose for the request and the read services are handed.
 * `pool`: where an export streams from, in a snapshot of its own.
 */
export interface ReadTarget extends Queryable {
  readonly pool: Pool;
}

/** The client of an open transaction. It runs one statement at a time, in call order. */
class ClientQueryable implements Queryable {
  private tail: Promise<unknown> = Promise.resolve();
  readonly committed: (() => void)[] = [];

  constructor(
    private readonly client: PoolClient,
    private readonly send: Send,
  ) {}

  query<R>(text: string, values?: unknown[], name?: string): Promise<R[]> {
    const run = this.tail.then(() => this.send<R>(this.client, text, values, name));
    this.tail = run.catch(() => undefined);
    return run;
  }

  afterCommit(hook: () => void): void {
    this.committed.push(hook);
  }
}

/**
 * Thin access to the `pg` pool that TypeORM's DataSource owns (the same pool on PostgreSQL and
 * on embedded PGlite). Hot paths send SQL here directly: no entity hydration, one round trip
 * per statement, and every write inside `transaction`.
 */
export class Db implements ReadTarget {
  private readonly begin: string;
  /** The connections opened outside the pool (LISTEN, session locks, the shutdown's canceller). */
  readonly directConnections = new DirectConnections();

  constructor(
    readonly pool: Pool,
    private readonly options: DbOptions = {},
  ) {
    const timeout = options.pooled?.statementTimeoutMs;
    // one round trip: a simple query of two statements
    this.begin = timeout ? `BEGIN; SET LOCAL statement_timeout = ${Math.trunc(timeout)}` : 'BEGIN';
  }

  private readonly config = (text: string, values?: unknown[], name?: string): QueryConfig =>
    name && this.options.preparedStatements !== false ? { name, text, values } : { text, values };

  private readonly send: Send = async <R>(
    target: Pool | PoolClient,
    text: string,
    values?: unknown[],
    name?: string,
  ) => {
    const observe = this.options.observe;
    if (!observe) return (await target.query(this.config(text, values, name))).rows as R[];
    const started = performance.now();
    try {
      return (await target.query(this.config(text, values, name))).rows as R[];
    } finally {
      observe(text, (performance.now() - started) / 1000);
    }
  };

  query<R = Record<string, unknown>>(text: string, values?: unknown[], name?: string): Promise<R[]> {
    return this.send<R>(this.pool, text, values, name);
  }

  /**
   * Cancels the statements the pool's connections are running (shutdown, once the requests that
   * sent them are gone): a single-record write is one statement without BEGIN/COMMIT, so one
   * waiting for a row lock would otherwise commit whenever the lock frees, after its client was
   * told nothing and the process has exited. Canceled, it writes nothing and the pool can end.
   * Returns how many; 0 where the pool is not pg-pool's (embedded PGlite: one process).
   */
  async cancelRunning(): Promise<number> {
    // pg-pool keeps every client in `_clients`, the idle ones in `_idle`
    const internal = this.pool as unknown as {
      _clients?: (PoolClient & { processID?: number; activeQuery?: unknown })[];
      _idle?: { client: PoolClient }[];
      options: object;
    };
    if (!Array.isArray(internal._clients) || !Array.isArray(internal._idle)) return 0;
    const idle = new Set(internal._idle.map((item) => item.client));
    const busy = internal._clients.filter((client) => !idle.has(client) && client.processID);
    if (this.options.pooled) {
      for (const client of busy.filter((c) => c.activeQuery))
        (new Client(internal.options) as unknown as CancelRequest).cancel(client, client.activeQuery);
      return busy.length;
    }
    const pids = busy.map((client) => client.processID);
    if (pids.length === 0) return 0;
    const canceller = await this.directConnections.connect(
      { ...internal.options, statement_timeout: 5000 },
      () => undefined,
    );
    try {
      await canceller.query('SELECT pg_cancel_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    } finally {
      await canceller.end().catch(() => undefined);
    }
    return pids.length;
  }

  /**
   * Runs `work` while holding a session-level advisory lock on `key`, taken on a connection of its
   * own: instances sharing the database run such work one at a time (a check-then-create at start).
   */
  async withAdvisoryLock<T>(key: number, work: () => Promise<T>): Promise<T> {
    // through a transaction-mode pooler a session lock would stay on a server connection that
    // other clients then share: it is taken on a direct connection of its own instead (a lost
    // connection frees its lock; the unlock below then fails)
    const direct = this.options.direct && (await this.directConnections.connect(this.options.direct, () => undefined));
    const client = direct || (await this.pool.connect());
    try {
      await client.query('SELECT pg_advisory_lock($1)', [key]);
      return await work();
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => undefined);
      if (direct) await direct.end().catch(() => undefined);
      else (client as PoolClient).release();
    }
  }

  /** Outside a transaction every statement commits on its own: a hook registered after one runs at once. */
  afterCommit(hook: () => void): void {
    hook();
  }

  /** Runs `work` in one transaction: COMMIT when it resolves, ROLLBACK when it throws. */
  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    // A connection that dies while checked out (server stopped, network cut) emits 'error':
    // without a listener that would crash the process. The statement in flight fails anyway.
    const onError = (error: Error) => {
      broken = error;
    };
    client.on('error', onError);
    try {
      await client.query(this.begin);
      const tx = new ClientQueryable(client, this.send);
      const result = await work(tx);
      await client.query('COMMIT');
      for (const hook of tx.committed) hook();
      return result;
    } catch (error) {
      if (dropsConnection(error)) broken = error as Error;
      try {
        await client.query('ROLLBACK');
      } catch (rollbackError) {
        broken = rollbackError as Error; // the connection is unusable: drop it from the pool
      }
      throw error;
    } finally {
      client.off('error', onError);
      client.release(broken);
    }
  }
}
