import { INestApplication } from '@nestjs/common';
import { Client } from 'pg';
import { createApiKey } from '../../src/collections/api-keys/first-api-key';
import { readPages } from '../cluster/feed';
import { postgresBinDir, PostgresServer } from '../support/embedded-postgres';
import { Http } from '../support/http';
import { PgBouncer, pgbouncerBinary } from '../support/pgbouncer';
import { announceSkippedSuite } from '../support/skipped-suites';
import { SseClient } from '../support/sse-client';
import { startTestServer } from '../support/test-app';

/**
 * API.md section 19, connection poolers: three instances behind Debian's PgBouncer (1.18) in
 * transaction mode with a pool of 4 server connections, on a PostgreSQL server of the file's own.
 * A mixed workload (single and batch writes, lists with counts, group by, an import, change
 * streams on every instance) gets no error, and the server sees at most the pool's 4 connections
 * plus one direct LISTEN connection per instance. The guards are shown to matter: the startup
 * parameters of session mode are refused by the pooler, and named statements (what
 * DATABASE_PREPARED_STATEMENTS=true sends, for PgBouncer 1.21+) fail through 1.18.
 */
const BIN = postgresBinDir();
const PGBOUNCER = pgbouncerBinary();
if (!PGBOUNCER && process.env.REQUIRE_PGBOUNCER) throw new Error('REQUIRE_PGBOUNCER is set, but there is no pgbouncer');
if (!BIN || !PGBOUNCER)
  announceSkippedSuite(
    'pooler',
    !BIN ? 'no PostgreSQL server binaries' : 'no pgbouncer on this machine',
    'apt-get install pgbouncer (and npm ci for the PostgreSQL binaries), or PGBOUNCER_BIN=/path/to/pgbouncer npm test',
  );

const POOL_SIZE = 4;
const INSTANCES = 3;

/** A row of the server's `pg_stat_activity`, as the test samples it. */
interface Backend {
  pid: number;
  applicationName: string;
  clientPort: number;
  state: string;
  query: string;
}

(BIN && PGBOUNCER ? describe : describe.skip)('behind PgBouncer in transaction mode', () => {
  let pg: PostgresServer;
  let bouncer: PgBouncer;
  const apps: INestApplication[] = [];

  async function start(env: Record<string, string>): Promise<{ app: INestApplication; baseUrl: string }> {
    const server = await startTestServer({
      DATABASE_URL: bouncer.url(),
      DATABASE_DIRECT_URL: pg.url,
      DATABASE_POOL_MODE: 'transaction',
      DB_POOL_SIZE: '10',
      CHANGES_KEEPALIVE_MS: '1000',
      // three instances, PgBouncer and PostgreSQL share the CI machine with the other suites: a
      // new connection to PgBouncer once took more than the default 3 s there (a CI run, 2026-11-29)
      DB_CONNECT_TIMEOUT_MS: '10000',
      ...env,
    });
    apps.push(server.app);
    return server;
  }

  beforeAll(async () => {
    pg = await PostgresServer.create(BIN);
    await pg.start();
    bouncer = await PgBouncer.start(PGBOUNCER!, { serverPort: pg.port, poolMode: 'transaction', poolSize: POOL_SIZE });
  }, 120_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await bouncer?.stop();
    await pg?.destroy();
  }, 60_000);

  it('refuses the startup parameters a session-mode connection sends (what the pooled connections leave out)', async () => {
    for (const extra of [{ statement_timeout: 30_000 }, { options: '-c TimeZone=UTC -c jit=off' }]) {
      const client = new Client({ connectionString: bouncer.url(), ...extra });
      client.on('error', () => undefined);
      await expect(client.connect()).rejects.toThrow(/unsupported startup parameter/);
      await client.end().catch(() => undefined);
    }
  });

  it('serves three instances through a pool of 4 server connections: no error, streams complete', async () => {
    const servers = await Promise.all(Array.from({ length: INSTANCES }, () => start({})));
    const { token } = await createApiKey(servers[0].app, 'pooler', new Date(Date.now() + 3600_000));
    const clients = servers.map((s) => new Http(s.baseUrl, token));
    const since = (await clients[0].get('/changes/head')).body.data.token;
    const streams = await Promise.all(
      servers.map((s) =>
        SseClient.open(`${s.baseUrl}/changes/stream?since=${since}`, { authorization: `Bearer ${token}` }),
      ),
    );
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);

    const monitor = new Client({ connectionString: pg.url });
    await monitor.connect();
    const samples: { at: number; backends: Backend[] }[] = [];
    const sample = async () => {
      const at = Date.now();
      const { rows } = await monitor.query<Backend>(
        `SELECT pid, application_name AS "applicationName", client_port AS "clientPort", state, left(query, 60) AS query
         FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      samples.push({ at, backends: rows });
    };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        await sample();
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    })();

    const statuses: string[] = [];
    const record = (what: string, status: number) => {
      if (status >= 400) statuses.push(`${what} ${status}`);
    };
    const csv = ['name.firstName,name.lastName,emails.primaryEmail'];
    for (let i = 0; i < 50; i++) csv.push(`Imported,${i},imported-${i}@pooler.example`);
    const worker = async (http: Http, n: number) => {
      for (let i = 0; i < 12; i++) {
        const created = await http.post('/companies?depth=0', { name: `Pooled ${n}-${i}`, employees: i });
        record('create', created.status);
        const id = created.body?.data?.createCompany?.id;
        const batch = await http.post('/batch/people', [
          { name: { firstName: `B${n}`, lastName: `${i}a` } },
          { name: { firstName: `B${n}`, lastName: `${i}b` } },
        ]);
        record('batch', batch.status);
        record('list', (await http.get('/companies?limit=5&filter=employees[gte]:3')).status);
        record('get', (await http.get(`/companies/${id}`)).status);
        record('update', (await http.patch(`/companies/${id}`, { employees: 100 + i })).status);
        record(
          'groupBy',
          (await http.get(`/companies/groupBy?group_by=${encodeURIComponent('[{"employees":true}]')}`)).status,
        );
        if (i % 3 === 0) record('delete', (await http.request('DELETE', `/companies/${id}`)).status);
      }
    };
    const imported = clients[1].request('POST', '/people/import?operation=create', {
      raw: csv.join('\n'),
      headers: { 'content-type': 'text/csv', prefer: 'wait=60' },
    });
    await Promise.all(clients.flatMap((http, n) => [worker(http, n * 2), worker(http, n * 2 + 1)]));
    const job = await imported.finally(async () => {
      sampling = false;
      await sampler;
      await monitor.end();
    });
    record('import', job.status);
    // on a loaded machine the job may outlast Prefer: wait: its end is then polled
    let ended = job.body.data?.import;
    for (let i = 0; i < 120 && ended?.state && !['completed', 'failed', 'cancelled'].includes(ended.state); i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      ended = (await clients[1].get(`/imports/${ended.id}`)).body.data?.import;
    }
    expect(ended).toMatchObject({ state: 'completed', rows: { created: 50 } });

    expect(statuses).toEqual([]);
    // every committed change reaches every instance's stream once, in feed order
    const feed = await readPages(servers[0].baseUrl, token, since);
    expect(feed.length).toBeGreaterThan(INSTANCES * 2 * 12 * 4);
    for (const stream of streams) {
      await stream.until(() => stream.events.length >= feed.length, 60_000);
      expect(stream.events.map((e) => e.id)).toEqual(feed.map((c) => c.id));
      stream.close();
    }
    // Each backend the server showed is one of: an instance's LISTEN connection (named so), one
    // of PgBouncer's server connections (its port is one PgBouncer connected from), or something
    // else. A backend PgBouncer had already closed was on its way out (its process not yet gone):
    // it no longer counts towards the pool.
    const opened = new Map(bouncer.serverConnections().map((c) => [c.fromPort, c]));
    const seen = samples.map(({ at, backends }) => {
      const listeners = backends.filter((b) => b.applicationName === 'crm-record-service-listen');
      const pooled = backends.filter((b) => opened.has(b.clientPort));
      const held = pooled.filter((b) => (opened.get(b.clientPort)!.closedAt ?? Infinity) > at);
      const other = backends.filter((b) => !listeners.includes(b) && !pooled.includes(b));
      return { at, listeners: listeners.length, pooled: pooled.length, held, other };
    });
    const most = Math.max(...seen.map((s) => s.held.length));
    const closed = [...opened.values()].filter((c) => c.closedAt);
    console.log(
      `pooler: ${feed.length} changes, ${samples.length} samples of the server's connections: at most ${most} held by ` +
        `PgBouncer (pool ${POOL_SIZE}; ${opened.size} opened, ${closed.length} closed` +
        `${closed.map((c) => `, ${c.reason}`).join('')}), at most ${Math.max(...seen.map((s) => s.pooled))} of its ` +
        `backends at once, ${Math.max(...seen.map((s) => s.listeners))} direct listeners`,
    );
    // whatever else the server saw is named here: an instance's own connection fails the test
    const others = [
      ...new Map(
        seen
          .flatMap((s) => s.other.map((b) => [b.pid, { ...b, firstSeen: new Date(s.at).toISOString() }] as const))
          .reverse(),
      ).values(),
    ];
    if (others.length > 0) console.log(`pooler: other connections to the server: ${JSON.stringify(others)}`);
    expect(others.filter((b) => b.applicationName.startsWith('crm-record-service'))).toEqual([]);
    expect(most).toBeLessThanOrEqual(POOL_SIZE);
    expect(Math.max(...seen.map((s) => s.listeners))).toBe(INSTANCES);
  }, 240_000);

  it('without the guard: named statements through PgBouncer 1.18 fail (DATABASE_PREPARED_STATEMENTS=true)', async () => {
    const { app, baseUrl } = await start({ DATABASE_PREPARED_STATEMENTS: 'true', DB_POOL_SIZE: '8' });
    const http = new Http(baseUrl, (await createApiKey(app, 'named', new Date(Date.now() + 3600_000))).token);
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const seen: number[] = [];
        for (let i = 0; i < 10; i++)
          seen.push((await http.post('/companies?depth=0', { name: `Named ${n}-${i}` })).status);
        return seen;
      }),
    );
    const failed = statuses.flat().filter((s) => s >= 500).length;
    console.log(`pooler control: ${failed} of 80 creates failed with named statements through PgBouncer 1.18`);
    expect(failed).toBeGreaterThan(0);
  }, 120_000);
});
