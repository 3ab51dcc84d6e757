/**
 * npm run test:cluster — three service processes behind HAProxy (deploy/haproxy.cfg, the file
 * docker-compose.yml uses), on the local PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379),
 * under a steady mixed load through HAProxy:
 *   1. a rolling restart (SIGTERM one instance, wait until it is back and ready, then the next):
 *      no request may fail;
 *   2. one instance killed with SIGKILL, then started again: only requests in flight at the kill
 *      may fail; an import running on it is finished by a survivor, every row once.
 * The load includes file uploads and downloads (S3 storage: s3rver), and an SSE change stream is
 * held through HAProxy from before the restarts, reconnecting with Last-Event-ID.
 * Then: every acknowledged create and PATCH is read back, every acknowledged create's webhook
 * delivery reached the receiver once, the stream gave exactly the change feed's pages, and the
 * rate-limit counters are shared by the instances; before the load, a file uploaded through each
 * instance downloads identically through the others.
 * Prints the figures; exits 1 on any violation. Loopback only; bounded in time and requests.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ChildServer, createApiKeyWithCli, freePort, probe, ROOT, serverEnv, sleep } from '../support/child-server';
import { S3TestServer } from '../support/s3-test-server';
import { checkChangeFeed, checkFilesAcrossInstances, checkSharedRateLimits, checkWrites } from './checks';
import { FeedStream } from './feed';
import { checkImportFinished, startImportOn } from './imports';
import { Haproxy } from './haproxy';
import { failed, Load, Outcome, percentile } from './load';
import { METRICS_TOKEN, scrapeInstances } from './metrics';
import { WebhookReceiver } from './receiver';

const ADMIN_URL = process.env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379';
const RATE = Number(process.env.CLUSTER_RATE ?? 250);
const INSTANCES = 3;
/** Webhook deliveries leased by a killed dispatcher come back after the 60 s lease. */
const LEASE_MS = 60_000;

const problems: string[] = [];
const check = (ok: boolean, problem: string) => ok || problems.push(problem);
const log = (line: string) => process.stdout.write(`cluster: ${line}\n`);

async function waitReady(baseUrl: string, timeoutMs = 90_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (
      (await probe(`${baseUrl}/ready`, { timeoutMs: 3000 }).then(
        (r) => r.status,
        () => 0,
      )) === 200
    )
      return Date.now() - started;
    await sleep(100);
  }
  throw new Error(`not ready after ${timeoutMs} ms: ${baseUrl}`);
}

/** The instances' S3 settings: s3rver's bucket (S3TestServer creates it), path-style. */
function s3Env(s3: S3TestServer): Record<string, string> {
  const { bucket, endpoint, credentials } = s3.config;
  return {
    S3_BUCKET: bucket,
    S3_ENDPOINT: endpoint!,
    S3_ACCESS_KEY_ID: credentials!.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials!.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

/** A workspace member, the author the uploaded attachments require. */
async function createAuthor(lb: string, token: string): Promise<string> {
  const res = await fetch(`${lb}/workspaceMembers?depth=0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ userId: randomUUID() }),
  });
  const id = ((await res.json()) as { data?: { createWorkspaceMember?: { id?: string } } }).data?.createWorkspaceMember
    ?.id;
  if (res.status !== 201 || !id) throw new Error(`POST /workspaceMembers answered ${res.status}`);
  return id;
}

/** GET /changes/head: the feed position before the load. */
async function headToken(lb: string, token: string): Promise<string> {
  const res = await fetch(`${lb}/changes/head`, { headers: { authorization: `Bearer ${token}` } });
  const head = ((await res.json()) as { data?: { token?: string } }).data?.token;
  if (res.status !== 200 || !head) throw new Error(`GET /changes/head answered ${res.status}`);
  return head;
}

/** `npm run build`, as the Docker image does: instances then start in about a second, not ts-node's 10+. */
function build(): void {
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`, { cause: error });
  }
}

async function main(): Promise<void> {
  const t0 = Date.now();
  build();
  log(`built in ${Math.round((Date.now() - t0) / 1000)} s`);
  const dbName = `crm_cluster_${Date.now()}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect().catch((error: Error) => {
    throw new Error(`no PostgreSQL at ${ADMIN_URL} (${error.message}); set CLUSTER_DATABASE_URL`);
  });
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const dbUrl = Object.assign(new URL(ADMIN_URL), { pathname: `/${dbName}` }).toString();
  const receiver = await new WebhookReceiver().start();
  const s3 = await S3TestServer.start();
  const servers: ChildServer[] = [];
  let haproxy: Haproxy | undefined;
  let stream: FeedStream | undefined;
  try {
    const token = await createApiKeyWithCli(dbUrl, 'cluster-load'); // applies the migrations, once
    const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
    const metricsPorts = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
    const env = (port: number, metricsPort: number) =>
      serverEnv(dbUrl, port, {
        METRICS_PORT: String(metricsPort),
        METRICS_TOKEN,
        MIGRATIONS_RUN: 'false',
        REDIS_URL,
        WEBHOOK_DISPATCH: 'true',
        WEBHOOK_POLL_MS: '250',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the receiver listens on 127.0.0.1
        SHUTDOWN_TIMEOUT_MS: '10000',
        DB_POOL_SIZE: '8',
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_PER_MINUTE: '1000000',
        IMPORT_LEASE_SECONDS: '5', // a killed instance's import is resumed 5 s later
        ...s3Env(s3),
      });
    const start = (i: number) =>
      (servers[i] = ChildServer.spawn(env(ports[i], metricsPorts[i]), join(ROOT, 'dist', 'src', 'main.js')));
    for (let i = 0; i < INSTANCES; i++) start(i);
    await Promise.all(servers.map((s) => waitReady(s.baseUrl)));
    haproxy = await Haproxy.start(await freePort(), ports);
    await sleep(2500); // two health checks: every server UP
    const lb = haproxy.baseUrl;
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const hook = await fetch(`${lb}/webhooks`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ targetUrl: receiver.url, operations: ['company.created'], secret: 'cluster' }),
    });
    check(hook.status === 201, `webhook create answered ${hook.status}`);
    log(
      `3 instances on ${ports.join(', ')}, HAProxy on ${haproxy.port}, database ${dbName}; ready in ${Math.round((Date.now() - t0) / 1000)} s`,
    );

    const rateBefore = await checkSharedRateLimits(lb, token, servers);
    problems.push(...rateBefore.problems);
    const authorId = await createAuthor(lb, token);
    const files = await checkFilesAcrossInstances(token, servers, authorId);
    problems.push(...files.problems);
    log(files.summary);
    const head = await headToken(lb, token);
    stream = new FeedStream(lb, token, head);
    stream.start();

    const load = new Load(lb, token, RATE, RATE * 150, authorId);
    load.start();
    const loadStarted = Date.now();
    await sleep(5000);
    const scraped = await scrapeInstances(metricsPorts);
    problems.push(...scraped.problems);

    // 1. rolling restart
    const rollStart = Date.now();
    const restarts: string[] = [];
    for (let i = 0; i < INSTANCES; i++) {
      const signalled = Date.now();
      servers[i].process.kill('SIGTERM');
      const exit = await servers[i].exited;
      check(
        exit.code === 0,
        `instance ${i + 1} exited with ${exit.code}/${exit.signal} on SIGTERM:\n${servers[i].output}`,
      );
      start(i);
      await waitReady(servers[i].baseUrl);
      await sleep(2500); // HAProxy: two good checks put it back
      restarts.push(
        `#${i + 1} exit ${exit.code} after ${exit.at - signalled} ms, back after ${Math.round((Date.now() - signalled) / 100) / 10} s`,
      );
    }
    const rollEnd = Date.now();
    await sleep(3000);

    // 2. SIGKILL one instance, start it again; an import runs on it when it is killed
    const victim = 1;
    const importId = await startImportOn(servers[victim].baseUrl, token);
    const killAt = Date.now();
    const inFlightAtKill = load.inFlight;
    await servers[victim].kill();
    // until the process is gone, its listening socket still completes handshakes: a request
    // sent between the signal and the exit may reach the dying instance too
    const exitAt = (await servers[victim].exited).at;
    await sleep(3000);
    start(victim);
    await waitReady(servers[victim].baseUrl);
    await sleep(5000);
    const killEnd = Date.now();
    const rescraped = await scrapeInstances(metricsPorts); // after the restarts and the SIGKILL
    problems.push(...rescraped.problems);
    // the import finishes (on a survivor) while the load and the change stream go on: the stream
    // must then carry its changes too
    const imported = await checkImportFinished(lb, token, importId, dbUrl);
    await load.stop();
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    await sleep(1000); // a change reaches every open stream within 1 s of its commit
    await stream.stop();

    // figures
    const all = load.outcomes;
    const during = (from: number, to: number) => all.filter((o) => o.startedAt >= from && o.startedAt < to);
    const rolling = during(rollStart, rollEnd);
    const killPhase = during(rollEnd, killEnd);
    const failures = (list: Outcome[]) => list.filter(failed);
    const describe = (list: Outcome[]) =>
      [...new Set(failures(list).map((o) => `${o.op} ${o.status || o.error}`))].slice(0, 5).join('; ');
    const rate = all.length / loadSeconds;
    log(
      `load: ${all.length} requests in ${loadSeconds.toFixed(1)} s (${rate.toFixed(0)} req/s; ${load.written.length} records created), ${load.deferred} deferred at the in-flight cap`,
    );
    log(
      `rolling restart: ${rolling.length} requests in ${((rollEnd - rollStart) / 1000).toFixed(1)} s, ${failures(rolling).length} failed${failures(rolling).length ? ` (${describe(rolling)})` : ''}; ` +
        `p50 ${percentile(rolling, 50)} ms, p99 ${percentile(rolling, 99)} ms, max ${percentile(rolling, 100)} ms; ${restarts.join('; ')}`,
    );
    const killFailures = failures(killPhase);
    const afterKill = killFailures.filter((o) => o.startedAt >= exitAt);
    const startedWhileDying = all.filter((o) => o.startedAt >= killAt && o.startedAt < exitAt).length;
    for (const o of afterKill.slice(0, 10))
      log(`failed after the exit: ${o.op} started ${o.startedAt - exitAt} ms after it: ${o.status || o.error}`);
    log(
      `SIGKILL: ${killPhase.length} requests, ${inFlightAtKill} in flight (all instances) at the signal and ${startedWhileDying} sent in the ${exitAt - killAt} ms until the exit was seen, ` +
        `${killFailures.length} failed${killFailures.length ? ` (${describe(killPhase)})` : ''}, ${afterKill.length} of them sent after the exit; p99 ${percentile(killPhase, 99)} ms`,
    );
    const otherFailures = failures(all).length - failures(rolling).length - killFailures.length;
    // the restarts and the SIGKILL must happen under real load: at least 60 % of the open-loop
    // target. Not a speed target (that is npm run bench): on 2 cores shared by three instances,
    // HAProxy, PostgreSQL, the import and the load itself, the same code did 185 to 221 req/s
    check(rate >= RATE * 0.6, `load rate ${rate.toFixed(0)} req/s < 60 % of the ${RATE} req/s sent`);
    check(loadSeconds >= 30, `load lasted ${loadSeconds} s < 30 s`);
    check(
      failures(rolling).length === 0,
      `${failures(rolling).length} requests failed during the rolling restart: ${describe(rolling)}`,
    );
    check(
      afterKill.length === 0,
      `${afterKill.length} requests sent after the killed instance had exited failed: ${describe(afterKill)}`,
    );
    check(
      killFailures.length <= inFlightAtKill + startedWhileDying,
      `${killFailures.length} failures at the SIGKILL > ${inFlightAtKill + startedWhileDying} requests in flight`,
    );
    check(otherFailures === 0, `${otherFailures} requests failed outside the two phases`);
    const fileOps = (list: Outcome[], op: Outcome['op']) => list.filter((o) => o.op === op && !failed(o)).length;
    log(
      `files through HAProxy: ${fileOps(all, 'upload')} uploads and ${fileOps(all, 'download')} byte-identical downloads in the whole load, ` +
        `${fileOps(rolling, 'upload')} and ${fileOps(rolling, 'download')} during the rolling restart; ${load.uploaded.length} files stored`,
    );
    check(
      fileOps(rolling, 'upload') > 0 && fileOps(rolling, 'download') > 0,
      'no file upload or download during the rolling restart',
    );

    const feed = await checkChangeFeed(lb, token, stream, head, {
      companies: load.written.map((w) => w.id),
      attachments: load.uploaded.map((u) => u.id),
    });
    problems.push(...feed.problems);
    log(feed.summary);

    problems.push(...imported.problems);
    log(imported.summary);
    log(`${scraped.summary}; after the restarts: ${rescraped.summary.replace(/^[^:]*: /, '')}`);

    // writes, webhooks, rate limits
    const writes = await checkWrites(lb, token, load.written, dbUrl, receiver, killAt + LEASE_MS + 15_000);
    problems.push(...writes.problems);
    log(writes.summary);
    const rateAfter = await checkSharedRateLimits(lb, token, servers);
    problems.push(...rateAfter.problems);
    log(`rate limits: ${rateBefore.summary} before; ${rateAfter.summary} after the SIGKILL`);
    log(
      `HAProxy: ${haproxy.serverEvents.length} server state changes; ${haproxy.lines.length} log lines (errors and retries only), in test-output/cluster-haproxy.log`,
    );
    mkdirSync(join(ROOT, 'test-output'), { recursive: true });
    writeFileSync(join(ROOT, 'test-output', 'cluster-haproxy.log'), `${haproxy.lines.join('\n')}\n`);
  } finally {
    await stream?.stop();
    await haproxy?.stop();
    await Promise.all(servers.map((s) => s?.kill()));
    await receiver.stop();
    await s3.stop();
    await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
  const seconds = Math.round((Date.now() - t0) / 1000);
  if (problems.length > 0) {
    process.stderr.write(`cluster test FAILED in ${seconds} s:\n  - ${problems.join('\n  - ')}\n`);
    process.exit(1);
  }
  log(`passed in ${seconds} s`);
  process.stdout.write('cluster: 1 passed, 0 failed\n');
}

main().catch((error: Error) => {
  process.stderr.write(`cluster test FAILED: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
