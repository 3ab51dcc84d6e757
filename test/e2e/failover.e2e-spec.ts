import { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createApiKey } from '../../src/collections/api-keys/first-api-key';
import { readPages } from '../cluster/feed';
import { sleep } from '../support/child-server';
import { PostgresServer, replicationBinDir } from '../support/embedded-postgres';
import { Http } from '../support/http';
import { announceSkippedSuite } from '../support/skipped-suites';
import { SseClient } from '../support/sse-client';
import { TcpSwitch } from '../support/tcp-switch';
import { startTestServer } from '../support/test-app';

/**
 * API.md section 19, failover: a primary with a synchronous streaming standby (both started here,
 * Debian's PostgreSQL 15: initdb, pg_basebackup -R), the service on an endpoint that reaches the
 * current primary (a TCP switch standing for an operator's read-write service). Under write load
 * the primary is killed (SIGKILL to all its processes) and the endpoint moved to the standby while it is still
 * in recovery, then the standby is promoted: no HTTP 500, no crash, writes accepted again soon
 * after the promotion by themselves, no acknowledged write lost, a retried Idempotency-Key leaves
 * one record, and a change stream gets every committed change once.
 * Without the guard (no `assertWritable` on connect and no 25006 mapping in db-errors.ts), the
 * requests sent while the endpoint reaches the standby answer 500.
 */
const BIN = replicationBinDir();
if (!BIN)
  announceSkippedSuite(
    'failover',
    'no PostgreSQL binaries with pg_basebackup',
    'apt-get install postgresql-15 (or PG_BIN_DIR=/usr/lib/postgresql/<major>/bin npm test)',
  );

(BIN ? describe : describe.skip)('failover to a promoted synchronous standby', () => {
  let primary: PostgresServer;
  let standby: PostgresServer;
  let endpoint: TcpSwitch;
  let app: INestApplication | undefined;

  beforeAll(async () => {
    primary = await PostgresServer.create(BIN);
    await primary.start();
    standby = await PostgresServer.standbyOf(primary);
    await standby.start();
    const admin = new Client({ connectionString: primary.url });
    await admin.connect();
    await admin.query(`ALTER SYSTEM SET synchronous_standby_names = '*'`);
    await admin.query('SELECT pg_reload_conf()');
    for (let i = 0; i < 100; i++) {
      const { rows } = await admin.query(`SELECT 1 FROM pg_stat_replication WHERE sync_state = 'sync'`);
      if (rows.length > 0) break;
      await sleep(100);
    }
    await admin.end();
    endpoint = await TcpSwitch.start(primary.port);
  }, 120_000);

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    await endpoint?.stop();
    await primary?.destroy();
    await standby?.destroy();
  }, 60_000);

  it('answers 503 during the switch, serves again after the promotion, loses no acknowledged write', async () => {
    const server = await startTestServer({
      DATABASE_URL: endpoint.url(),
      DB_CONNECT_TIMEOUT_MS: '2000',
      CHANGES_KEEPALIVE_MS: '500',
    });
    app = server.app;
    const baseUrl = server.baseUrl;
    const { token } = await createApiKey(app, 'failover', new Date(Date.now() + 3600_000));
    const http = new Http(baseUrl, token);
    const since = (await http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(`${baseUrl}/changes/stream?since=${since}`, {
      authorization: `Bearer ${token}`,
    });

    const statuses = new Map<number, number>();
    const acknowledged = new Map<string, string>(); // name -> id
    let promotedAt = 0;
    let firstWriteAfterPromotion = 0;
    let writing = true;
    /** One create with its Idempotency-Key, retried with the same key on 503 until acknowledged. */
    const writer = async (n: number) => {
      for (let i = 0; writing; i++) {
        const name = `Failover ${n}-${i}`;
        const key = randomUUID();
        for (let attempt = 0; attempt < 200; attempt++) {
          const res = await http.post('/companies?depth=0', { name }, { headers: { 'idempotency-key': key } });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status === 201) {
            acknowledged.set(name, res.body.data.createCompany.id);
            if (promotedAt && !firstWriteAfterPromotion) firstWriteAfterPromotion = Date.now();
            break;
          }
          if (res.status !== 503) break;
          expect(res.headers.get('retry-after')).toBeTruthy();
          await sleep(100);
        }
      }
    };
    const writers = Promise.all([0, 1, 2, 3].map(writer));
    await sleep(1000);
    const before = acknowledged.size;
    primary.signal('SIGKILL'); // the primary's machine dies: every process at once, nothing flushed
    endpoint.pointTo(standby.port); // the endpoint reaches the standby while it is still in recovery
    await sleep(2000);
    const duringSwitch = new Map(statuses);
    await standby.promote();
    promotedAt = Date.now();
    for (let i = 0; i < 150 && !firstWriteAfterPromotion; i++) await sleep(100);
    await sleep(1000);
    writing = false;
    await writers;

    const db = new Client({ connectionString: standby.url });
    await db.connect();
    const { rows } = await db.query<{ name: string; id: string }>(
      `SELECT name, id FROM company WHERE name LIKE 'Failover %' AND "deletedAt" IS NULL`,
    );
    await db.end();
    const stored = new Map(rows.map((r) => [r.name, r.id]));
    const lost = [...acknowledged].filter(([name, id]) => stored.get(name) !== id);
    const feed = await readPages(baseUrl, token, since);
    await stream.until(() => stream.events.length >= feed.length, 20_000);
    stream.close();
    console.log(
      `failover: ${before} writes before the stop, ${acknowledged.size} acknowledged in all, statuses ` +
        `${JSON.stringify(Object.fromEntries(statuses))} (during the switch: ${JSON.stringify(Object.fromEntries(duringSwitch))}); ` +
        `first write ${firstWriteAfterPromotion - promotedAt} ms after the promotion; ${lost.length} lost; ` +
        `${rows.length} records for ${acknowledged.size} keys; stream ${stream.events.length} of ${feed.length} changes`,
    );
    expect(statuses.get(500) ?? 0).toBe(0);
    expect(duringSwitch.get(503) ?? 0).toBeGreaterThan(0);
    expect(firstWriteAfterPromotion).toBeGreaterThan(0);
    expect(firstWriteAfterPromotion - promotedAt).toBeLessThanOrEqual(5000);
    expect(lost).toEqual([]);
    expect(rows.length).toBe(acknowledged.size); // a retried key never made a second record
    expect(stream.events.map((e) => e.id)).toEqual(feed.map((c) => c.id));
  }, 180_000);
});
