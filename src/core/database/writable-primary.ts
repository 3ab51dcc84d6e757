import type { ClientBase } from 'pg';

/** SQLSTATE read_only_sql_transaction: what a standby answers to a write. */
export const READ_ONLY_SQLSTATE = '25006';

/**
 * Checks, on a new connection, that it reached a writable primary: behind a failover endpoint
 * (a Kubernetes operator's read-write service, HAProxy in front of Patroni) a connection opened
 * during the switch may still land on a node in recovery. Throwing makes the pool close it and
 * fail the request waiting for it, which answers 503 with Retry-After (isUnavailableError).
 * One statement per new connection, none per request.
 */
export async function assertWritable(client: ClientBase): Promise<void> {
  const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
  if (rows[0]?.recovery) {
    const error = new Error('the database server is a standby in recovery, not the primary') as Error & {
      code: string;
    };
    error.code = READ_ONLY_SQLSTATE;
    throw error;
  }
}
