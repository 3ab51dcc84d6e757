import { Client } from 'pg';
import {
  ChildServer,
  createApiKeyWithCli,
  freePort,
  killAllChildren,
  seededRandom,
  serverEnv,
  sleep,
} from '../support/child-server';
import { postgresForSuite } from '../support/embedded-postgres';
import type { Json } from '../support/http';
import { announceSkippedSuite } from '../support/skipped-suites';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/**
 * Import durability (API.md section 17): the instance running an import is killed with SIGKILL at
 * a random moment and started again. `atomic=false`: the job resumes after its last committed
 * checkpoint and completes, every row is in the table exactly once with exactly one change of
 * the feed. `atomic=true`: nothing is there after the kill, and the job starts over and completes.
 * PostgreSQL only (TEST_DATABASE_URL, or a server of its own). IMPORT_CRASH_ROWS (default 200,000) sets the file's size;
 * CRASH_SEED replays the kill moments; IMPORT_CRASH_ROWS=0 leaves the suite out (announced), as the CI
 * passes after the first do (it is slow: run once).
 */
const postgres = postgresForSuite('import-crash');
const ROWS = Number(process.env.IMPORT_CRASH_ROWS ?? 200_000);
if (ROWS === 0)
  announceSkippedSuite('import-crash', 'IMPORT_CRASH_ROWS=0 (CI runs it once, in its first pass)', 'npm test');
const suite = ROWS === 0 ? describe.skip : postgres.describe;

suite('import: SIGKILL of the instance running a job loses no row and writes none twice', () => {
  let database: TestDatabase;
  let pg: Client;
  let token: string;
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000_007);
  const random = seededRandom(seed);

  beforeAll(async () => {
    await postgres.beforeAll();
    database = await createTestDatabase();
    token = await createApiKeyWithCli(database.url!, 'import-crash'); // also applies the migrations
    pg = new Client({ connectionString: database.url });
    await pg.connect();
    console.log(`import crash: seed ${seed} (CRASH_SEED=${seed} replays the kill moments), ${ROWS} rows`);
  });

  afterAll(async () => {
    await killAllChildren();
    await pg?.end().catch(() => undefined);
    await database?.drop();
    await postgres.afterAll();
  });

  const env = async () => serverEnv(database.url!, await freePort(), { IMPORT_LEASE_SECONDS: '3' });
  const file = (tag: string) => {
    const lines = ['name.firstName,name.lastName,emails.primaryEmail,city'];
    for (let i = 0; i < ROWS; i++) lines.push(`${tag}${i},Crash,${tag.toLowerCase()}${i}@crash.example,${tag}`);
    return lines.join('\r\n') + '\r\n';
  };
  const job = async (server: ChildServer, id: string): Promise<Json> => {
    const res = await fetch(`${server.baseUrl}/imports/${id}`, { headers: { authorization: `Bearer ${token}` } });
    return ((await res.json()) as Json).data.import;
  };
  const count = async (sql: string, values: unknown[]) => Number((await pg.query(sql, values)).rows[0].n);
  const people = (tag: string) => count('SELECT count(*) AS n FROM person WHERE city = $1', [tag]);
  const distinctPeople = (tag: string) =>
    count('SELECT count(DISTINCT "emailsPrimaryEmail") AS n FROM person WHERE city = $1', [tag]);
  const feed = (tag: string) =>
    count(
      `SELECT count(*) AS n FROM "_changes" WHERE "collection" = 'people' AND "eventName" = 'person.created' AND "record" ->> 'city' = $1`,
      [tag],
    );

  /** Starts an import, kills the server once the job has run for a random while, restarts it, waits for the end. */
  async function crashDuring(tag: string, query: string, killed: (job: Json) => Promise<void>): Promise<Json> {
    let server = await ChildServer.start(await env());
    const started = await fetch(`${server.baseUrl}/people/import?${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
      body: file(tag),
    });
    expect(started.status).toBe(202);
    const { id } = ((await started.json()) as Json).data.import;
    // a random moment once the job runs: between 1 % and 60 % of its rows read (atomic=false), or
    // into the second pass that writes them all (atomic=true: its first pass has read every row)
    const inSecondPass = query.includes('atomic=true');
    const at = inSecondPass ? ROWS : Math.floor(ROWS * (0.01 + random() * 0.59));
    for (let current = await job(server, id); current.state !== 'running' || current.rows.read < at;) {
      expect(['queued', 'running']).toContain(current.state);
      await sleep(20);
      current = await job(server, id);
    }
    if (inSecondPass) await sleep(Math.floor(random() * 1500));
    expect((await job(server, id)).state).toBe('running');
    await server.kill();
    const before = await job(await (server = await ChildServer.start(await env())), id).catch(() => undefined);
    await killed(before);
    for (let waited = 0; ; waited += 250) {
      const current = await job(server, id);
      if (['completed', 'failed', 'cancelled'].includes(current.state)) {
        await server.kill();
        return current;
      }
      if (waited > timeout) throw new Error(`the job did not finish after a restart: ${JSON.stringify(current)}`);
      await sleep(250);
    }
  }

  /** About 10 ms a row for the two imports, restarts and checks of a test, at least the default 2 minutes. */
  const timeout = Math.max(120_000, ROWS * 10);

  it(
    'atomic=false: resumes after its last checkpoint; every row once, with one change each',
    async () => {
      const done = await crashDuring('Loose', 'atomic=false', async () => {
        // what was committed before the kill is there, and no more than was read
        expect(await people('Loose')).toBeLessThan(ROWS);
      });
      expect(done.state).toBe('completed');
      expect(done.rows).toEqual({ read: ROWS, created: ROWS, updated: 0, unchanged: 0, failed: 0, unprocessed: 0 });
      expect(await people('Loose')).toBe(ROWS);
      expect(await distinctPeople('Loose')).toBe(ROWS);
      expect(await feed('Loose')).toBe(ROWS);
    },
    timeout,
  );

  it(
    'atomic=true: killed while it writes, nothing is there; the job starts over and completes',
    async () => {
      const done = await crashDuring('Whole', 'atomic=true', async () => {
        expect(await people('Whole')).toBe(0);
        expect(await feed('Whole')).toBe(0);
      });
      expect(done.state).toBe('completed');
      expect(done.rows).toEqual({ read: ROWS, created: ROWS, updated: 0, unchanged: 0, failed: 0, unprocessed: 0 });
      expect(await people('Whole')).toBe(ROWS);
      expect(await feed('Whole')).toBe(ROWS);
    },
    timeout,
  );

  it(
    'cancel: a running atomic=false job stops at its next checkpoint; the rows written stay, the rest are unprocessed',
    async () => {
      const server = await ChildServer.start(await env());
      const auth = { authorization: `Bearer ${token}` };
      const started = await fetch(`${server.baseUrl}/people/import?atomic=false`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/csv' },
        body: file('Halt'),
      });
      const { id } = ((await started.json()) as Json).data.import;
      for (let current = await job(server, id); current.state !== 'running' || current.rows.read === 0;) {
        await sleep(20);
        current = await job(server, id);
      }
      const asked = Date.now();
      const cancel = await fetch(`${server.baseUrl}/imports/${id}/cancel`, { method: 'POST', headers: auth });
      expect(cancel.status).toBe(200);
      let done = await job(server, id);
      while (done.state === 'running') {
        await sleep(50);
        done = await job(server, id);
      }
      const seconds = (Date.now() - asked) / 1000;
      await server.kill();
      expect(done.state).toBe('cancelled');
      expect(seconds).toBeLessThan(10);
      const { read, created, unprocessed, failed } = done.rows;
      expect({ read, sum: created + unprocessed + failed }).toEqual({ read: ROWS, sum: ROWS });
      expect(unprocessed).toBeGreaterThan(0);
      expect(await people('Halt')).toBe(created);
      expect(await feed('Halt')).toBe(created);
    },
    timeout,
  );
});
