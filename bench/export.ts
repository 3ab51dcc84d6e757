import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Client, Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { startTsServer, TsServer } from './lib/ts-server';

/**
 * Export benchmark (API.md section 15, `GET /<plural>/export`), not a test:
 *   1. rows/s of an export of 100,000 people through the service (NDJSON and CSV) against a bare
 *      node:http + pg baseline that runs the same `COPY (...) TO STDOUT` (the statement the
 *      service's repository builds) in the same REPEATABLE READ transaction and pipes it out;
 *   2. first-byte latency at 100,000 rows (target: at most 200 ms);
 *   3. a 1,000,000-row export: the server's RSS growth while it streams (target: under 100 MB).
 * Servers run as child processes (their RSS read from /proc); the client reads as fast as it can.
 * Usage:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node --transpile-only bench/export.ts [--runs 5] [--big 1000000]
 * Databases `crm_bench_export_100k` and `crm_bench_export` (1M) are created (or reused when they
 * hold the rows), seeded with people by generate_series; the export is every person (no order_by: storage order).
 */
const ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg('--runs', 5);
const SMALL = 100_000;
const BIG = arg('--big', 1_000_000);
const ENCRYPTION_KEY = Buffer.alloc(32, 1).toString('base64');

function withDb(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The statement the service's repository builds for `GET /people/export` (every field, by id). */
function serviceStatement(): string {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded only where needed (the baseline child has none of it) */
  const { COLLECTION_DEFINITIONS } = require('../src/collections');
  const { CollectionCatalog } = require('../src/core/model/collection-catalog');
  const { RecordRepository } = require('../src/core/repository/record-repository');
  const { TableSql } = require('../src/core/repository/table-sql');
  const { listSql } = require('../src/core/query/list-sql');
  const { resolveSort } = require('../src/core/query/sort-sql');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const meta = new CollectionCatalog(COLLECTION_DEFINITIONS).require('people');
  const list = listSql(meta, { sort: resolveSort(meta, []), sortSignature: '', limit: 0, depth: 0 });
  const { text, values } = new RecordRepository(new TableSql(meta)).exportStatement(list, false, { keep: () => true });
  if (values.length) throw new Error('the unfiltered export binds no value');
  return text;
}

/** The baseline: node:http + pg, the same transaction and COPY as the service, piped to the response. */
function serveBaseline(): void {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c TimeZone=UTC -c jit=off' });
  const copy = `COPY (${process.env.EXPORT_SQL}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`;
  const server = createServer(async (req, res) => {
    let client: PoolClient | undefined;
    try {
      client = await pool.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      await client.query('SELECT pg_current_snapshot()::text');
      const stream = client.query(copyTo(copy));
      const held = client;
      let ended = false;
      stream.on('end', () => (ended = true));
      stream.on('error', () => undefined);
      res.on('close', () => {
        if (ended) void held.query('COMMIT').finally(() => held.release());
        else {
          stream.destroy();
          held.release(new Error('client gone'));
        }
      });
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      stream.pipe(res);
    } catch (error) {
      client?.release(error as Error);
      res.writeHead(500).end(String(error));
    }
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`READY ${process.env.PORT}`));
}

/** The service (the real application) on the benchmark database, with an API key it prints. */
async function serveService(): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports -- see serviceStatement */
  const { createApp } = require('../src/app.factory');
  const { createApiKey } = require('../src/collections/api-keys/first-api-key');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const { app } = await createApp({
    env: {
      DATABASE_URL: process.env.DATABASE_URL,
      ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
      BOOTSTRAP_API_KEY: 'false',
      HTTP_ADAPTER: process.env.HTTP_ADAPTER ?? 'express',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_PER_MINUTE: '60000000',
    },
  });
  await app.listen(Number(process.env.PORT), '127.0.0.1');
  const { token } = await createApiKey(app, 'bench export', new Date(Date.now() + 3600_000));
  console.log(`READY ${process.env.PORT} ${token}`);
}

/** Creates the database when missing and seeds it up to `rows` people (kept between runs). */
async function seed(name: string, rows: number): Promise<string> {
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  if (!(await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount)
    await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDb(ADMIN, name);
  // the service's migrations create the tables
  const migrate = await start('--serve-service', { DATABASE_URL: url }, 3300);
  migrate.proc.kill();
  const client = new Client({ connectionString: url });
  await client.connect();
  const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM person')).rows;
  if (n !== rows) {
    await client.query('TRUNCATE person CASCADE');
    process.stderr.write(`seeding ${rows} people in ${name} `);
    for (let start = 0; start < rows; start += 100_000) {
      await client.query(
        `INSERT INTO person ("nameFirstName", "nameLastName", "emailsPrimaryEmail", "emailsAdditionalEmails", "jobTitle", city, position,
           "phonesPrimaryPhoneNumber", "phonesPrimaryPhoneCountryCode", "phonesPrimaryPhoneCallingCode")
         SELECT 'First' || g, 'Last, "' || (g % 9973) || '"', 'person' || g || '@example.com',
           CASE WHEN g % 3 = 0 THEN jsonb_build_array('alt' || g || '@example.com') ELSE '[]'::jsonb END,
           'Job ' || (g % 97), 'City ' || (g % 311), g, '555' || (g % 10000), 'US', '+1'
         FROM generate_series($1::int, $2::int) g`,
        [start + 1, Math.min(start + 100_000, rows)],
      );
      process.stderr.write('.');
    }
    await client.query('VACUUM ANALYZE person');
    process.stderr.write(' done\n');
  }
  await client.end();
  return url;
}

type Server = TsServer;
const start = (mode: string, env: Record<string, string>, port: number) => startTsServer(__filename, mode, env, port);

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** One export read to the end: time to the first byte, total time, rows (lines), bytes, the server's peak RSS. */
async function exportOnce(server: Server, path: string) {
  const pid = server.proc.pid!;
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
  const t0 = process.hrtime.bigint();
  const res = await fetch(`http://127.0.0.1:${server.port}${path}`, {
    headers: server.token ? { authorization: `Bearer ${server.token}` } : {},
  });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const reader = res.body!.getReader();
  let first = 0;
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = Number(process.hrtime.bigint() - t0) / 1e6;
    bytes += value.length;
    for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) lines++;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { first, ms, lines, bytes, before, peak };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measure(label: string, server: Server, path: string, rows: number, runs: number, warm = true) {
  const results = [];
  if (warm) await exportOnce(server, path);
  for (let i = 0; i < runs; i++) results.push(await exportOnce(server, path));
  const lines = results[0].lines;
  const records = path.includes('csv') ? lines - 1 : lines;
  if (records !== rows) throw new Error(`${label}: ${records} records, expected ${rows}`);
  const row = {
    label,
    rowsPerS: Math.round(rows / (median(results.map((r) => r.ms)) / 1000)),
    firstByteMs: median(results.map((r) => r.first)),
    mb: results[0].bytes / 1e6,
    rssGrowthMb: Math.max(...results.map((r) => r.peak - r.before)),
    rssBeforeMb: results[0].before,
  };
  console.log(
    `${label}: ${row.rowsPerS.toLocaleString('en')} rows/s, first byte ${row.firstByteMs.toFixed(1)} ms (median of ${runs}), ` +
      `${row.mb.toFixed(1)} MB, server RSS ${row.rssBeforeMb.toFixed(0)} MB before, growth ${row.rssGrowthMb.toFixed(1)} MB`,
  );
  return row;
}

async function main() {
  const small = await seed('crm_bench_export_100k', SMALL);
  const big = await seed('crm_bench_export', BIG);
  const EXPORT_SQL = serviceStatement();
  const servers: Server[] = [];
  try {
    for (const [url, rows, runs] of [
      [small, SMALL, RUNS],
      [big, BIG, 1],
    ] as const) {
      const service = await start('--serve-service', { DATABASE_URL: url }, 3301);
      const baseline = await start('--serve-baseline', { DATABASE_URL: url, EXPORT_SQL }, 3302);
      servers.push(service, baseline);
      const warm = runs > 1;
      console.log(
        `\n${rows.toLocaleString('en')} people, ${warm ? `${runs} runs each after one warm-up` : 'one export each, the first the servers make'}:`,
      );
      await measure('service NDJSON', service, '/rest/people/export?format=ndjson', rows, runs, warm);
      await measure('service CSV', service, '/rest/people/export?format=csv', rows, runs, warm);
      await measure('baseline (node:http + pg, same COPY)', baseline, '/export', rows, runs, warm);
      service.proc.kill();
      baseline.proc.kill();
    }
  } finally {
    for (const server of servers) server.proc.kill();
  }
}

const mode = process.argv[2];
if (mode === '--serve-baseline') serveBaseline();
else if (mode === '--serve-service')
  serveService().catch((error) => {
    console.error(error);
    process.exit(1);
  });
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
