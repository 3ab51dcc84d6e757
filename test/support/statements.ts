import { Db } from '../../src/core/database/db';
import { NOTIFY_CHANGES_SQL } from '../../src/core/repository/change-feed.statements';

type Query = (...args: unknown[]) => Promise<unknown>;

const textOf = (config: unknown) => (typeof config === 'string' ? config : (config as { text: string }).text);

/**
 * Records the statements a request sends, to check that their number does not grow with the
 * data: those sent through the pool (reads, single-statement writes) and, on the clients the
 * pool lends for transactions, every statement including BEGIN and COMMIT (one round trip each).
 * The guard's API-key lookup (cached for a few seconds) is the request's, not the operation's;
 * the change feed's notification after a commit (ChangeSignal: at most one per 50 ms per
 * instance, not awaited by the request) is the instance's, not the request's.
 */
export function recordStatements(db: Db) {
  const pool = db.pool as unknown as { query: Query; connect: (...args: unknown[]) => Promise<{ query: Query }> };
  let seen: string[] | undefined;
  let names: (string | undefined)[] = [];
  const record = (config: unknown) => {
    const text = textOf(config);
    if (text.includes('"tokenHash" = $1') || text === NOTIFY_CHANGES_SQL || !seen) return;
    seen.push(text);
    names.push(typeof config === 'string' ? undefined : (config as { name?: string }).name);
  };
  const query = pool.query.bind(pool);
  pool.query = (config: unknown, ...rest: unknown[]) => {
    record(config);
    return query(config, ...rest);
  };
  const connect = pool.connect.bind(pool);
  pool.connect = async (...args: unknown[]) => {
    // TypeORM's own callback-style checkouts (readiness, migrations) pass through untouched
    if (args.length > 0) return connect(...args);
    const client = await connect();
    const own = client.query;
    // a client is lent for one transaction; its query goes back to the prototype's when released
    client.query = (config: unknown, ...rest: unknown[]) => {
      record(config);
      return own.call(client, config, ...rest);
    };
    const release = (client as unknown as { release: (...a: unknown[]) => void }).release;
    (client as unknown as { release: (...a: unknown[]) => void }).release = (...args: unknown[]) => {
      client.query = own;
      (client as unknown as { release: unknown }).release = release;
      return release.apply(client, args);
    };
    return client;
  };
  return {
    /** What `work` sent: the statements' texts and, beside each, its prepared-statement name (if any). */
    async during<T>(
      work: () => Promise<T>,
    ): Promise<{ result: T; statements: string[]; names: (string | undefined)[] }> {
      seen = [];
      names = [];
      try {
        const result = await work();
        return { result, statements: seen, names };
      } finally {
        seen = undefined;
      }
    },
  };
}
