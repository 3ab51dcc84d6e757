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
  return { databaseUrl, database: { poolMode, preparedStatements, directUrl } };
}
