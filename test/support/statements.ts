import { Db } from '../../src/core/database/db';

type Query = (...args: unknown[]) => Promise<unknown>;

const textOf = (config: unknown) => (typeof config === 'string' ? config : (config as { text: string }).text);

/**
 * The statements of the instance's background work, which shares the pool with the requests:
 * the outboxes' workers (webhook deliveries, file removals and the sweep), the purge of expired
 * idempotency keys, the feed's retention and its notification after commits, the import worker,
 * the compaction of the live counts.
 */
const BACKGROUND = new RegExp(
  [
    '^UPDATE "webhookDelivery"',
    '^UPDATE "fileDeletion"',
    '^DELETE FROM "fileDeletion"',
    '^SELECT "id" FROM "attachment" WHERE "id" = ANY',
    '^DELETE FROM "idempotencyKey" WHERE "createdAt" <',
    '^WITH gone AS \\(DELETE FROM "_changes"',
    "^SELECT pg_notify\\('crm_changes'",
    // the import worker: its claim of a job (a transaction), its retention purge
    '^UPDATE "_imports"',
    '^DELETE FROM "_imports"',
    // the compaction of the live-count deltas
    '^WITH lock AS \\(SELECT pg_try_advisory_xact_lock',
  ].join('|'),
);

/** How many statements matching `pattern` the app's Db sent during `work` (a spy on Db.query). */
export async function countStatements(db: Db, pattern: RegExp, work: () => Promise<unknown>): Promise<number> {
  const spy = jest.spyOn(db, 'query');
  try {
    await work();
    return spy.mock.calls.filter(([sql]) => pattern.test(sql)).length;
  } finally {
    spy.mockRestore();
  }
}

/**
 * Records the statements a request sends, to check that their number does not grow with the
 * data: those sent through the pool (reads, single-statement writes) and, on the clients the
 * pool lends for transactions, every statement including BEGIN and COMMIT (one round trip each).
 * The guard's API-key lookup (cached for a few seconds) is the request's, not the operation's;
 * background work (BACKGROUND: a statement, or a transaction holding one) is the instance's.
 */
export function recordStatements(db: Db) {
  const pool = db.pool as unknown as { query: Query; connect: (...args: unknown[]) => Promise<{ query: Query }> };
  let seen: string[] | undefined;
  let names: (string | undefined)[] = [];
  type Sent = { text: string; name: string | undefined };
  const sent = (config: unknown): Sent => ({
    text: textOf(config),
    name: typeof config === 'string' ? undefined : (config as { name?: string }).name,
  });
  const keep = (statements: Sent[]) => {
    if (!seen || statements.some((s) => BACKGROUND.test(s.text))) return;
    for (const { text, name } of statements) {
      if (text.includes('"tokenHash" = $1')) continue;
      seen.push(text);
      names.push(name);
    }
  };
  const record = (config: unknown) => keep([sent(config)]);
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
    // a client is lent for one transaction: its statements are kept when it comes back (all of
    // them, unless the transaction was background work), and its query is the prototype's again
    const transaction: Sent[] = [];
    client.query = (config: unknown, ...rest: unknown[]) => {
      transaction.push(sent(config));
      return own.call(client, config, ...rest);
    };
    const release = (client as unknown as { release: (...a: unknown[]) => void }).release;
    (client as unknown as { release: (...a: unknown[]) => void }).release = (...args: unknown[]) => {
      keep(transaction);
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
