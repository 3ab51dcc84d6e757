import { Client } from 'pg';
import { startTestApp, TestApp } from '../support/test-app';
import { postgresForSuite } from '../support/embedded-postgres';

/**
 * The database refusing connections (ALLOW_CONNECTIONS false, sessions terminated): requests answer
 * 503 quickly, and the service recovers by itself when the database comes back.
 * (The stop/start of a whole PostgreSQL server is covered by the reliability suite.)
 */
const postgres = postgresForSuite('database-unavailable');

postgres.describe('database unavailable', () => {
  let t: TestApp;
  let admin: Client;
  let name: string;
  beforeAll(async () => {
    await postgres.beforeAll(); // TEST_DATABASE_URL, or a server of this file's own
    t = await startTestApp({ DB_CONNECT_TIMEOUT_MS: '2000' });
    name = new URL(t.database.url!).pathname.slice(1);
    admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
    await postgres.afterAll();
  });

  it('answers 503 within 5 s while it is gone, then recovers without a restart', async () => {
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [name],
    );
    for (let i = 0; i < 3; i++) {
      const started = Date.now();
      const res = await t.http.get(`/companies?filter=name[eq]:x${i}`);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        statusCode: 503,
        error: 'ServiceUnavailableException',
        messages: ['The database is unavailable; retry later'],
      });
    }
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS true`);
    const started = Date.now();
    let status = 0;
    while (Date.now() - started < 10_000 && status !== 200) {
      status = (await t.http.get('/companies')).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe(200);
  });
});
