import { INestApplication } from '@nestjs/common';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { createApiKey } from '../../src/collections/api-keys/first-api-key';
import { Db } from '../../src/core/database/db';
import { Replicas } from '../../src/core/database/replicas';
import { ChildServer, freePort, serverEnv, sleep, within } from '../support/child-server';
import { PostgresServer, replicationBinDir } from '../support/embedded-postgres';
import { Http } from '../support/http';
import { redisForSuite } from '../support/redis-server';
import { announceSkippedSuite } from '../support/skipped-suites';
import { SseClient } from '../support/sse-client';
import { startTestServer } from '../support/test-app';

/**
 * API.md section 19, read replicas: a primary and a streaming standby replaying 2 s late
 * (`recovery_min_apply_delay`), both started here with Debian's PostgreSQL 15, two instances
 * sharing one Redis. A key that writes on one instance and reads on the other never reads stale
 * data (the control reads the standby directly after each write: stale nearly every time); a key
 * that only reads is served by the replica; a DATABASE_DIRECT_URL naming the standby stops the
 * start (migrations) or, migrations run beforehand, its LISTEN fails without leaving its
 * connection open and the change streams go on by polling; a frozen (SIGSTOP) and then killed
 * replica costs no client an error. Without the guard (WritePositions not consulted), the first
 * test's reads go to the lagging replica and find the old values.
 */
const BIN = replicationBinDir();
if (!BIN)
  announceSkippedSuite(
    'replicas',
    'no PostgreSQL binaries with pg_basebackup',
    'apt-get install postgresql-15 (or PG_BIN_DIR=/usr/lib/postgresql/<major>/bin npm test)',
  );
const redis = redisForSuite('replicas-redis');

(BIN && redis.enabled ? describe : describe.skip)('read replicas with read-your-writes', () => {
  let primary: PostgresServer;
  let standby: PostgresServer;
  const apps: INestApplication[] = [];
  const urls: string[] = [];

  beforeAll(async () => {
    await redis.beforeAll();
    primary = await PostgresServer.create(BIN);
    await primary.start();
    standby = await PostgresServer.standbyOf(primary);
    appendFileSync(join(standby.dataDir, 'postgresql.auto.conf'), `recovery_min_apply_delay = '2s'\n`);
    await standby.start();
    for (let i = 0; i < 2; i++) {
      const { app, baseUrl } = await startTestServer({
        DATABASE_URL: primary.url,
        DATABASE_REPLICA_URLS: standby.url,
        REPLICA_TIMEOUT_MS: '250',
        ...redis.env(),
      });
      apps.push(app);
      urls.push(baseUrl);
    }
    // the replica is used once its health checks have seen it replay within the lag limit
    for (let i = 0; i < 100 && !apps.every((a) => a.get(Replicas).replicas[0].healthy); i++) await sleep(100);
  }, 180_000);

  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    await primary?.destroy();
    await standby?.destroy();
    await redis.afterAll();
  }, 60_000);

  const routed = () =>
    apps.reduce(
      (sum, app) => {
        const replicas = app.get(Replicas);
        return { replica: sum.replica + replicas.replicaRoutes, primary: sum.primary + replicas.primaryReads };
      },
      { replica: 0, primary: 0 },
    );

  it('never shows a key its own writes stale, across two instances (replica 2 s behind)', async () => {
    expect(apps.map((a) => a.get(Replicas).replicas[0].healthy)).toEqual([true, true]);
    const { token } = await createApiKey(apps[0], 'writer', new Date(Date.now() + 3600_000));
    const [a, b] = urls.map((url) => new Http(url, token));
    const direct = new Pool({ connectionString: standby.url, max: 4 });
    let stale = 0;
    let staleOnStandby = 0;
    const loop = async (n: number) => {
      const created = await a.post('/companies?depth=0', { name: `RYW ${n}`, employees: 0 });
      expect(created.status).toBe(201);
      const id = created.body.data.createCompany.id;
      for (let i = 1; i <= 250; i++) {
        const [writer, reader] = i % 2 ? [a, b] : [b, a];
        expect((await writer.patch(`/companies/${id}?depth=0`, { employees: i })).status).toBe(200);
        const read = await reader.get(`/companies/${id}?depth=0`);
        if (read.body.data?.company?.employees !== i) stale++; // a 404 too (GitLab #413203)
        const list = await reader.get(`/companies?depth=0&filter=${encodeURIComponent(`id[eq]:${id}`)}`);
        if (list.body.data?.companies[0]?.employees !== i) stale++;
        // the control: the same read on the standby itself, without the guard
        const { rows } = await direct.query('SELECT employees FROM company WHERE id = $1', [id]);
        if (rows[0]?.employees !== i) staleOnStandby++;
      }
    };
    await Promise.all([0, 1, 2, 3].map(loop));
    await direct.end();
    console.log(
      `replicas: 1,000 write-then-read sequences (2 reads each, the other instance half the time): ${stale} stale ` +
        `through the service, ${staleOnStandby} of 1,000 stale when read on the standby directly`,
    );
    expect(stale).toBe(0);
    expect(staleOnStandby).toBeGreaterThan(900);
  }, 180_000);

  it('serves a key that only reads from the replica', async () => {
    const { token } = await createApiKey(apps[1], 'reader', new Date(Date.now() + 3600_000));
    await sleep(2500); // the replica replays the key's creation (it is read on every request)
    const clients = urls.map((url) => new Http(url, token));
    const before = routed();
    for (let i = 0; i < 200; i++) {
      const res = await clients[i % 2].get('/companies?limit=5&depth=0&filter=employees[gte]:100');
      expect(res.status).toBe(200);
    }
    const after = routed();
    const replica = after.replica - before.replica;
    const share = replica / (replica + after.primary - before.primary);
    console.log(`replicas: a key that only reads: ${replica} of 200 list requests served by the replica`);
    expect(share).toBeGreaterThanOrEqual(0.8);
  }, 60_000);

  it('exports from the replica with the token of its own snapshot: export + changes since it = the live data', async () => {
    const writer = new Http(
      urls[0],
      (await createApiKey(apps[0], 'export-writer', new Date(Date.now() + 3600_000))).token,
    );
    const reader = new Http(
      urls[1],
      (await createApiKey(apps[1], 'export-reader', new Date(Date.now() + 3600_000))).token,
    );
    await sleep(2500); // the replica has both keys
    const names = Array.from({ length: 20 }, (_, i) => ({ name: `Exported ${i}` }));
    const created = await writer.post('/batch/companies?depth=0', names);
    expect(created.status).toBe(201);
    const ids = (created.body.data.createCompanies as { id: string }[]).map((c) => c.id).sort();
    const before = routed();
    const filter = encodeURIComponent('name[startsWith]:"Exported "');
    const exported = await reader.get(`/companies/export?format=ndjson&filter=${filter}`);
    expect(exported.status).toBe(200);
    expect(routed().replica - before.replica).toBe(1); // the reader has no write: the replica served it
    const inExport = exported.text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).id as string);
    const token = exported.headers.get('x-changes-token')!;
    const changes = await reader.get(`/changes?since=${encodeURIComponent(token)}&collections=companies&limit=1000`);
    const since = (changes.body.data.changes as { recordId: string }[]).map((c) => c.recordId);
    console.log(
      `replicas: export from the replica (2 s behind) held ${inExport.length} of the 20 records just written; ` +
        `the changes since its token ${since.filter((id) => ids.includes(id)).length}`,
    );
    expect(inExport.length).toBeLessThan(20); // it was behind: the token is what brings it up to date
    expect([...new Set([...inExport, ...since.filter((id) => ids.includes(id))])].sort()).toEqual(ids);
  }, 60_000);

  it('refuses to start when DATABASE_DIRECT_URL names a standby and migrations run, naming the variable', async () => {
    const server = ChildServer.spawn(
      serverEnv(primary.url, await freePort(), { DATABASE_DIRECT_URL: standby.url, ...redis.env() }),
    );
    const exited = await within(server.exited, 60_000).finally(() => server.kill());
    expect(exited?.code).toBe(1);
    expect(server.output.toString()).toMatch(
      /^DATABASE_DIRECT_URL: the database server is a standby in recovery, not the primary$/m,
    );
  }, 90_000);

  it('a LISTEN that fails (its direct URL a standby) ends its connection; the stream goes on by polling', async () => {
    const { app, baseUrl } = await startTestServer({
      DATABASE_URL: primary.url,
      DATABASE_DIRECT_URL: standby.url,
      // migrations run on the direct URL too, and refuse a standby at start: here they ran before
      // (as a deployment's migration job does), so the LISTEN is what meets the standby
      MIGRATIONS_RUN: 'false',
      ...redis.env(),
    });
    apps.push(app);
    const http = new Http(baseUrl, (await createApiKey(app, 'listen', new Date(Date.now() + 3600_000))).token);
    const since = (await http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(`${baseUrl}/changes/stream?since=${since}`, {
      authorization: `Bearer ${http.token}`,
    });
    const created = await http.post('/companies?depth=0', { name: 'Heard by the poll' });
    expect(created.status).toBe(201);
    await stream.until(() => stream.events.length > 0, 10_000);
    stream.close();
    expect(stream.events[0].data).toMatchObject({ recordId: created.body.data.createCompany.id });
    // the standby refused the LISTEN, and the connection that sent it is gone (for good: without
    // the fix it stays open, hearing nothing)
    const refused = () => /cannot execute LISTEN during recovery/.test(readFileSync(standby.logFile, 'utf8'));
    for (let i = 0; i < 100 && !refused(); i++) await sleep(100);
    expect(refused()).toBe(true);
    const direct = new Client({ connectionString: standby.url });
    await direct.connect();
    const listening = async () =>
      (
        await direct.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'crm-record-service-listen'`,
        )
      ).rows[0].n;
    for (let i = 0; i < 50 && (await listening()) > 0; i++) await sleep(100);
    expect(await listening()).toBe(0);
    await direct.end();
    expect(app.get(Db).directConnections.open).toBe(0);
  }, 60_000);

  it('costs no client an error when the replica freezes (SIGSTOP) and when it is killed', async () => {
    const { token } = await createApiKey(apps[0], 'steady', new Date(Date.now() + 3600_000));
    await sleep(2500);
    const clients = urls.map((url) => new Http(url, token));
    /** Reads at a fixed rate (50/s) for `ms`, with `during` run after the first second. */
    const run = async (ms: number, during: () => Promise<void>) => {
      const results: { status: number; ms: number; at: number }[] = [];
      const pending: Promise<void>[] = [];
      const started = Date.now();
      let event = Promise.resolve();
      for (let i = 0; Date.now() - started < ms; i++) {
        if (i === 50) event = during();
        const sent = Date.now();
        pending.push(
          clients[i % 2].get('/companies?limit=5&depth=0').then((res) => {
            results.push({ status: res.status, ms: Date.now() - sent, at: sent });
          }),
        );
        await sleep(Math.max(0, started + (i + 1) * 20 - Date.now()));
      }
      await Promise.all(pending);
      await event;
      const sorted = results.map((r) => r.ms).sort((x, y) => x - y);
      if (process.env.DEBUG_REPLICAS)
        console.log(JSON.stringify(results.filter((r) => r.ms > 200).map((r) => [r.at - started, r.ms])));
      return {
        errors: results.filter((r) => r.status !== 200).length,
        reads: results.length,
        p99: sorted[Math.floor(sorted.length * 0.99)],
      };
    };
    const frozen = await run(12_000, async () => {
      const stopped = standby.signal('SIGSTOP');
      await sleep(10_000);
      for (const pid of stopped) process.kill(pid, 'SIGCONT');
    });
    const killed = await run(5000, async () => {
      await standby.stop('immediate');
    });
    console.log(
      `replicas: frozen 10 s: ${frozen.errors} errors of ${frozen.reads} reads, p99 ${frozen.p99} ms; ` +
        `killed: ${killed.errors} errors of ${killed.reads} reads, p99 ${killed.p99} ms`,
    );
    expect(frozen.errors).toBe(0);
    expect(killed.errors).toBe(0);
  }, 120_000);
});
