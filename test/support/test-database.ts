import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/** A database of its own for one test file: a new PostgreSQL database, or in-memory PGlite. */
export interface TestDatabase {
  /** Environment that points the app at this database. */
  env: Record<string, string>;
  kind: 'postgres' | 'pglite';
  /** Connection string on PostgreSQL (for tests that inspect the database directly). */
  url?: string;
  drop(): Promise<void>;
}

/** Where e2e tests run: TEST_DATABASE_URL (a real PostgreSQL) or embedded PGlite when unset. */
export function testDatabaseKind(): 'postgres' | 'pglite' {
  return process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    return { env: { DATA_DIR: 'memory://' }, kind: 'pglite', drop: async () => undefined };
  }
  const name = `crm_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(adminUrl, name);
  return {
    env: { DATABASE_URL: url },
    kind: 'postgres',
    url,
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
