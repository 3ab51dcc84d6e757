import { Db } from '../../src/core/database/db';

/**
 * Records the statements a request sends through the pool (reads: list, group by, search), to
 * check that their number does not grow with the data. Writes run on a checked-out client and
 * are not seen here; nor is the guard's API-key lookup.
 */
export function recordStatements(db: Db) {
  const pool = db.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = pool.query.bind(pool);
  let seen: string[] | undefined;
  pool.query = (config: unknown, ...rest: unknown[]) => {
    const text = typeof config === 'string' ? config : (config as { text: string }).text;
    // the guard's API-key lookup (cached for a few seconds) is the request's, not the operation's
    if (!text.includes('"tokenHash" = $1')) seen?.push(text);
    return query(config, ...rest);
  };
  return {
    async during<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      seen = [];
      try {
        const result = await work();
        return { result, statements: seen };
      } finally {
        seen = undefined;
      }
    },
  };
}
