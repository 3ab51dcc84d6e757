import { EnvReader } from './env-reader';

/**
 * How the service reaches PostgreSQL beyond one direct connection string (API.md section 19):
 * through a transaction-mode pooler, with a direct connection beside it for what a pooler cannot
 * carry (LISTEN, migrations, session locks).
 */
export interface DatabaseTierConfig {
  /**
   * `DATABASE_POOL_MODE`: `session` (default: a direct connection or a session-mode pooler) or
   * `transaction` (PgBouncer in transaction mode): no session state outlives a transaction and
   * the pooled connections send no startup parameter a pooler refuses.
   */
  poolMode: 'session' | 'transaction';
  /**
   * `DATABASE_PREPARED_STATEMENTS`: protocol-level named statements for the hot writes. Default
   * true in session mode, false in transaction mode (PgBouncer 1.21+ with max_prepared_statements
   * carries them; older poolers answer 42P05/26000 to them).
   */
  preparedStatements: boolean;
  /**
   * `DATABASE_DIRECT_URL`: a direct connection to the primary for LISTEN, migrations and session
   * advisory locks. Required in transaction mode; otherwise DATABASE_URL serves them.
   */
  directUrl?: string;
  /**
   * `DATABASE_REPLICA_URLS`: streaming replicas of the primary (comma list). Lists, get one,
   * counts, group by, search and duplicates read from them, except for a key whose last write
   * they have not replayed.
   */
  replicaUrls: string[];
  /** `REPLICA_MAX_LAG_MS` (default 5000): a replica further behind the primary gets no reads. */
  replicaMaxLagMs: number;
  /**
   * `REPLICA_TIMEOUT_MS` (default 1000): how long a replica may take to connect, to answer its
   * health check or a read; past it the read is answered from the primary and the replica checked.
   */
  replicaTimeoutMs: number;
}

const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** Reads DATABASE_URL and the section 19 settings (problems go to `read.problems`). */
export function readDatabaseConfig(read: EnvReader): { databaseUrl?: string; database: DatabaseTierConfig } {
  const databaseUrl = read.optional('DATABASE_URL');
  if (databaseUrl && !isPostgresUrl(databaseUrl))
    read.problems.push('DATABASE_URL must start with postgres:// or postgresql://');
  const poolMode = read.oneOf('DATABASE_POOL_MODE', 'session', ['session', 'transaction'] as const);
  const directUrl = read.optional('DATABASE_DIRECT_URL');
  if (directUrl && !isPostgresUrl(directUrl))
    read.problems.push('DATABASE_DIRECT_URL must start with postgres:// or postgresql://');
  if (directUrl && !databaseUrl)
    read.problems.push('DATABASE_DIRECT_URL is set without DATABASE_URL (the embedded database has no pooler)');
  if (poolMode === 'transaction' && !databaseUrl)
    read.problems.push('DATABASE_POOL_MODE=transaction needs DATABASE_URL (the pooler) and DATABASE_DIRECT_URL');
  else if (poolMode === 'transaction' && !directUrl)
    read.problems.push(
      'DATABASE_POOL_MODE=transaction needs DATABASE_DIRECT_URL, a direct connection to the primary ' +
        '(LISTEN and migrations cannot go through a transaction-mode pooler)',
    );
  const preparedStatements = read.bool('DATABASE_PREPARED_STATEMENTS', poolMode === 'session');
  const replicaUrls = (read.optional('DATABASE_REPLICA_URLS') ?? '')
    .split(',')
    .map((url) => url.trim())
    .filter(Boolean);
  if (replicaUrls.some((url) => !isPostgresUrl(url)))
    read.problems.push('DATABASE_REPLICA_URLS must be a comma list of postgres:// or postgresql:// URLs');
  if (replicaUrls.length > 0 && !databaseUrl)
    read.problems.push('DATABASE_REPLICA_URLS is set without DATABASE_URL (the embedded database has no replica)');
  const replicaMaxLagMs = read.int('REPLICA_MAX_LAG_MS', 5000, 100, 3_600_000);
  const replicaTimeoutMs = read.int('REPLICA_TIMEOUT_MS', 1000, 50, 60_000);
  return {
    databaseUrl,
    database: { poolMode, preparedStatements, directUrl, replicaUrls, replicaMaxLagMs, replicaTimeoutMs },
  };
}
