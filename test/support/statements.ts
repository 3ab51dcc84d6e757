import { Db } from '../../src/core/database/db';

/**
 * Records the statements a request sends through the pool (reads: list, group by, search), to
 * check that their number does not grow with the data. Writes run on a checked-out client and
 * are not seen here.
 */
export function recordStatements(db: Db) {
  const pool = db.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
  const query = pool.query.bind(pool);
  let seen: string[] | undefined;
  pool.query = (config: unknown, ...rest: unknown[]) => {
    seen?.push(typeof config === 'string' ? config : (config as { text: string }).text);
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
