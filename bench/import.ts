import 'reflect-metadata';
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createBenchKey, withDatabase } from './lib/database';
import { rssMb, sampleRss } from './lib/processes';
import { CITIES, company, person } from './lib/seed-data';
import { NOISE, SqlCapture } from './lib/sql-capture';
import { startTsServer, TsServer } from './lib/ts-server';
import { CHECKPOINT_ROWS } from '../src/core/imports/import-passes';

/**
 * Import benchmark (API.md section 17, `POST /<plural>/import`), not a test:
 *   - a bare `COPY person (...) FROM STDIN` of N people (the company id resolved by the generator)
 *     into the same table with the same indexes, as the baseline;
 *   - through the service (`src/main.ts` in a child process, the service's defaults): an insert-only
 *     import with atomic=false, the same with atomic=true, a 50/50 upsert (half the rows match
 *     existing people by emails.primaryEmail with a changed city, half are new), a dry run, each
 *     timed from the POST to the job seen `completed` (GET /rest/imports/<id> every 200 ms);
 *   - the same people through `POST /rest/batch/people` 200 at a time (one client, sequential);
 *   - rows/s at 50,000 and at N rows; the server's RSS (VmRSS every 100 ms) before and at its peak;
 *   - the statements per checkpoint (CHECKPOINT_ROWS of the service) at 50,000 and at N rows, from a second server
 *     whose database connection goes through the recording proxy of `--sql-check` (lib/sql-capture.ts).
 * The people's CSV: name.firstName, name.lastName, emails.primaryEmail (unique),
 * phones.primaryPhoneNumber, city, jobTitle, company.domainName.primaryLinkUrl (one of the seeded
 * companies, each with a unique domain); deterministic (lib/seed-data.ts), streamed to temp files.
 * Usage:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node --transpile-only bench/import.ts \
 *     [--rows 500000] [--companies 50000] [--runs 1] [--batch-rows 50000] [--scenarios a,b,c,d,e,f,sql]
 *     [--no-sql-check] [--cpu-prof] [--pad N]
 * The database `crm_bench_import` is dropped and created again at each run; between scenarios the
 * people and every table the scenarios write (events, feed, import jobs) are truncated, then
 * VACUUM ANALYZE and CHECKPOINT. Writes bench/results/import-<timestamp>.json.
 */
const ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const flag = (name: string) => process.argv.includes(name);
const SCENARIOS = (() => {
  const i = process.argv.indexOf('--scenarios');
  return i > 0 ? process.argv[i + 1].split(',') : ['a', 'b', 'c', 'd', 'e', 'f', 'sql'];
})();
/** Whether a scenario (a..f, sql) runs: `--scenarios a,f,sql`; `--no-sql-check` leaves sql out. */
const want = (name: string) => SCENARIOS.includes(name) && !(name === 'sql' && flag('--no-sql-check'));
const ROWS = arg('--rows', 500_000);
const COMPANIES = arg('--companies', 50_000);
const RUNS = arg('--runs', 1);
const SMALL = Math.min(50_000, ROWS);
const BATCH_ROWS = Math.min(ROWS, arg('--batch-rows', 50_000));
const BATCH_SIZE = 200;
/**
 * `--pad N`: each person gets an `avatarUrl` N characters long (a file of large rows: `--rows 100000 --pad 10000`
 * is about 1 GiB). A column outside the search vector and every index: large values cost the import and the bare
 * COPY the same (a padded job title would be tokenized into the search vector, row by row, in both).
 */
const PAD = arg('--pad', 0);
const DATABASE = 'crm_bench_import';
const ENCRYPTION_KEY = Buffer.alloc(32, 1).toString('base64');
const STAMP = new Date().toISOString().replace(/[:.]/g, '-');
const RESULTS = join(__dirname, 'results');

const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e9;

// ---------------------------------------------------------------------------------------------
// the server: src/main.ts as it runs in production, told READY once it answers

/**
 * Runs the service's own entry point (src/main.ts: its V8 flags, its graceful shutdown) and prints
 * `READY <port>` once it answers HTTP. With CPU_PROF=<file>, a V8 CPU profile of the whole life of
 * the process is written to that file at SIGTERM (before the graceful shutdown exits).
 */
async function serveService(): Promise<void> {
  const profileTo = process.env.CPU_PROF;
  if (profileTo) {
    /* eslint-disable-next-line @typescript-eslint/no-require-imports -- only when profiling */
    const inspector = require('node:inspector') as typeof import('node:inspector');
    const session = new inspector.Session();
    session.connect();
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: 1000 });
    session.post('Profiler.start');
    // synchronous on the main thread: the profile is on disk before the shutdown's process.exit
    process.prependListener('SIGTERM', () =>
      session.post('Profiler.stop', (error, result) => {
        if (!error) writeFileSync(profileTo, JSON.stringify(result.profile));
      }),
    );
  }
  /* eslint-disable-next-line @typescript-eslint/no-require-imports -- the service's entry point runs its main() */
  require('../src/main');
  const port = process.env.PORT;
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/rest/people?limit=1`);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  console.log(`READY ${port}`);
}

async function startService(databaseUrl: string, port: number, dataDir: string, cpuProf?: string): Promise<TsServer> {
  return startTsServer(
    __filename,
    '--serve-service',
    {
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ENCRYPTION_KEY,
      LOG_LEVEL: 'info',
      BOOTSTRAP_API_KEY: 'false',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_PER_MINUTE: '60000000',
      IMPORT_MAX_BYTES: String(4 * 1024 ** 3),
      ...(cpuProf ? { CPU_PROF: cpuProf } : {}),
    },
    port,
  );
}

async function stopService(server: TsServer): Promise<void> {
  if (server.proc.exitCode !== null) return;
  const exited = once(server.proc, 'exit');
  server.proc.kill('SIGTERM');
  const timer = setTimeout(() => server.proc.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------------------------------------
// the data

/** The person of row `j` of a file: person j of the seed data, always with a company. */
function personRow(j: number, cityShift = 0) {
  const p = person(j, COMPANIES);
  const companyIndex = p.companyIndex ?? j % COMPANIES;
  let city = p.city;
  if (cityShift) {
    const at = CITIES.findIndex(([name]) => name === p.city);
    city = CITIES[(at + cityShift) % CITIES.length][0] as string;
  }
  const avatarUrl = PAD ? `avatar ${j} `.repeat(Math.ceil(PAD / 8)).slice(0, PAD) : '';
  return { ...p, city, companyIndex, avatarUrl };
}

const csvCell = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);
const csvLine = (cells: string[]) => `${cells.map(csvCell).join(',')}\n`;

const IMPORT_HEADER = [
  'name.firstName',
  'name.lastName',
  'emails.primaryEmail',
  'phones.primaryPhoneNumber',
  'city',
  'jobTitle',
  'company.domainName.primaryLinkUrl',
  ...(PAD ? ['avatarUrl'] : []),
];
/** An empty text cell is '' as the service stores it (a CSV COPY reads an unquoted empty cell as NULL). */
const COPY_OPTIONS = `FORMAT csv, HEADER true, FORCE_NOT_NULL ("nameFirstName", "nameLastName", "emailsPrimaryEmail", "phonesPrimaryPhoneNumber", city, "jobTitle"${PAD ? ', "avatarUrl"' : ''})`;
const COPY_COLUMNS = [
  'nameFirstName',
  'nameLastName',
  'emailsPrimaryEmail',
  'phonesPrimaryPhoneNumber',
  'city',
  'jobTitle',
  'companyId',
  ...(PAD ? ['avatarUrl'] : []),
];

/** Writes a file line by line with backpressure (never the whole file in memory). */
async function writeLines(path: string, header: string, count: number, line: (k: number) => string): Promise<number> {
  const out = createWriteStream(path);
  let chunk = header;
  for (let k = 0; k < count; k++) {
    chunk += line(k);
    if (chunk.length > 256 * 1024) {
      if (!out.write(chunk)) await once(out, 'drain');
      chunk = '';
    }
  }
  out.end(chunk);
  await once(out, 'finish');
  return statSync(path).size;
}

interface Files {
  insert: string;
  insertCopy: string;
  small: string;
  upsert: string;
  upsertCopy: string;
}

/**
 * The import file of people 0..N-1 and its COPY twin (company ids instead of domains); the first
 * 50,000 of them; the upsert file: row k is person k/2 with another city when k is even (it
 * matches by email a person of the insert file), person N+k (new) when k is odd.
 */
async function generateFiles(dir: string): Promise<Files> {
  const domains = Array.from({ length: COMPANIES }, (_, i) => company(i).domain);
  const ids = Array.from({ length: COMPANIES }, (_, i) => company(i).id);
  const padded = (p: ReturnType<typeof personRow>) => (PAD ? [p.avatarUrl] : []);
  const importLine = (p: ReturnType<typeof personRow>) =>
    csvLine([
      p.firstName,
      p.lastName,
      p.email,
      p.phoneNumber,
      p.city,
      p.jobTitle,
      domains[p.companyIndex],
      ...padded(p),
    ]);
  const copyLine = (p: ReturnType<typeof personRow>) =>
    csvLine([p.firstName, p.lastName, p.email, p.phoneNumber, p.city, p.jobTitle, ids[p.companyIndex], ...padded(p)]);
  const upsertPerson = (k: number) => (k % 2 === 0 ? personRow(k / 2, 1) : personRow(ROWS + k));
  const files: Files = {
    insert: join(dir, 'people.csv'),
    insertCopy: join(dir, 'people-copy.csv'),
    small: join(dir, 'people-50k.csv'),
    upsert: join(dir, 'people-upsert.csv'),
    upsertCopy: join(dir, 'people-upsert-copy.csv'),
  };
  const t0 = process.hrtime.bigint();
  const header = csvLine(IMPORT_HEADER);
  const copyHeader = csvLine(COPY_COLUMNS);
  const size = await writeLines(files.insert, header, ROWS, (k) => importLine(personRow(k)));
  await writeLines(files.insertCopy, copyHeader, ROWS, (k) => copyLine(personRow(k)));
  await writeLines(files.small, header, SMALL, (k) => importLine(personRow(k)));
  await writeLines(files.upsert, header, ROWS, (k) => importLine(upsertPerson(k)));
  await writeLines(files.upsertCopy, copyHeader, ROWS, (k) => copyLine(upsertPerson(k)));
  console.log(
    `files: ${ROWS.toLocaleString('en')} people, ${(size / 1e6).toFixed(1)} MB of CSV to import (${seconds(t0).toFixed(1)} s to generate all)`,
  );
  return files;
}

// ---------------------------------------------------------------------------------------------
// the database

async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'crm-bench-import' });
  await client.connect();
  return client;
}

/** Drops and creates the bench database, applies the migrations (src/cli/migrate.ts), seeds the companies. */
async function createDatabase(): Promise<string> {
  const admin = await connect(ADMIN);
  await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${DATABASE}"`);
  await admin.end();
  const url = withDatabase(ADMIN, DATABASE);
  /* eslint-disable-next-line @typescript-eslint/no-require-imports -- only the parent migrates */
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const migrate = spawnSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(__dirname, '../src/cli/migrate.ts')],
    { env: { ...process.env, DATABASE_URL: url, ENCRYPTION_KEY, TS_NODE_TRANSPILE_ONLY: 'true' }, encoding: 'utf8' },
  );
  if (migrate.status !== 0) throw new Error(`migrations failed: ${migrate.stderr}${migrate.stdout}`);
  const db = await connect(url);
  for (let start = 0; start < COMPANIES; start += 5000) {
    const rows = Array.from({ length: Math.min(5000, COMPANIES - start) }, (_, i) => company(start + i));
    await db.query(
      `INSERT INTO company (id, name, "domainNamePrimaryLinkUrl", employees, position, "createdBySource", "createdByName")
       SELECT *, 'IMPORT', 'Benchmark seed' FROM unnest($1::uuid[], $2::text[], $3::text[], $4::float8[], $5::float8[])`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.name),
        rows.map((r) => r.domain),
        rows.map((r) => r.employees),
        rows.map((r) => r.position),
      ],
    );
  }
  await db.query('VACUUM ANALYZE company');
  await db.end();
  console.log(`database ${DATABASE}: migrated, ${COMPANIES.toLocaleString('en')} companies with unique domains`);
  return url;
}

const WRITTEN_TABLES = [
  'person',
  'auditLog',
  'timelineActivity',
  'webhookDelivery',
  '_changes',
  '_imports',
  '_import_errors',
  '_import_keys',
];

/** Empties what the scenarios write, then VACUUM ANALYZE and CHECKPOINT: each scenario starts alike. */
async function reset(db: Client): Promise<void> {
  await db.query(`TRUNCATE ${WRITTEN_TABLES.map((t) => `"${t}"`).join(', ')} CASCADE`);
  for (const table of [...WRITTEN_TABLES, 'company']) await db.query(`VACUUM ANALYZE "${table}"`);
  await db.query('CHECKPOINT');
}

/** A bare `COPY person (...) FROM STDIN` of a file, in one statement (autocommit); seconds. */
async function copyIn(db: Client, file: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const names = COPY_COLUMNS.map((c) => `"${c}"`).join(', ');
  await pipeline(
    createReadStream(file),
    db.query(copyFrom(`COPY person (${names}) FROM STDIN WITH (${COPY_OPTIONS})`)),
  );
  return seconds(t0);
}

/**
 * A bare SQL upsert of the upsert file, for reference: COPY into a temporary table, UPDATE of the
 * people matched by email whose city differs, INSERT of the others, in one transaction; seconds.
 */
async function sqlUpsert(db: Client, file: string): Promise<{ s: number; updated: number; created: number }> {
  const t0 = process.hrtime.bigint();
  await db.query('BEGIN');
  await db.query(
    `CREATE TEMP TABLE s ("nameFirstName" text, "nameLastName" text, "emailsPrimaryEmail" text,
       "phonesPrimaryPhoneNumber" text, city text, "jobTitle" text, "companyId" uuid${PAD ? ', "avatarUrl" text' : ''}) ON COMMIT DROP`,
  );
  await pipeline(createReadStream(file), db.query(copyFrom(`COPY s FROM STDIN WITH (${COPY_OPTIONS})`)));
  const updated = await db.query(
    `UPDATE person p SET city = s.city, "updatedAt" = now() FROM s
     WHERE p."emailsPrimaryEmail" = s."emailsPrimaryEmail" AND p."deletedAt" IS NULL AND p.city IS DISTINCT FROM s.city`,
  );
  const names = COPY_COLUMNS.map((c) => `"${c}"`).join(', ');
  const created = await db.query(
    `INSERT INTO person (${names}) SELECT ${names} FROM s WHERE NOT EXISTS
       (SELECT 1 FROM person p WHERE p."emailsPrimaryEmail" = s."emailsPrimaryEmail" AND p."deletedAt" IS NULL)`,
  );
  await db.query('COMMIT');
  return { s: seconds(t0), updated: updated.rowCount ?? 0, created: created.rowCount ?? 0 };
}

// ---------------------------------------------------------------------------------------------
// the service

interface Job {
  id: string;
  state: string;
  rows: { read: number; created: number; updated: number; unchanged: number; failed: number; unprocessed: number };
  startedAt: string | null;
  finishedAt: string | null;
  createdAt: string;
  message?: string;
}

function http(
  server: TsServer,
  token: string,
  method: string,
  path: string,
  body?: { file?: string; json?: unknown; type?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    let payload: Buffer | undefined;
    if (body?.file) {
      headers['content-type'] = body.type ?? 'text/csv';
      headers['content-length'] = statSync(body.file).size;
    } else if (body?.json !== undefined) {
      payload = Buffer.from(JSON.stringify(body.json));
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = request({ host: '127.0.0.1', port: server.port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body?.file) createReadStream(body.file).pipe(req);
    else req.end(payload);
  });
}

interface ImportRun {
  label: string;
  query: string;
  rows: number;
  s: number;
  uploadS: number;
  rowsPerS: number;
  serverS: number | null;
  job: Job;
  rssBeforeMb?: number;
  rssPeakMb?: number;
  rssGrowthMb?: number;
  load: string;
}

/**
 * The server's RSS at the peak of the 2,000-row warm-up import: the floor of the growth measured.
 * An idle server's heap shrinks (after the bare COPY, the RSS before a run was 206 MB where the
 * warm-up had peaked at 365): the RSS just before a run measures the heap's state, not what the
 * import needs; the growth is the peak over the larger of the two.
 */
let warmPeakMb: number | undefined;

/** One import, from the POST to the job seen finished (GET every 200 ms), the server's RSS sampled every 100 ms. */
async function importOnce(
  server: TsServer,
  token: string,
  label: string,
  file: string,
  query: string,
  rows: number,
): Promise<ImportRun> {
  const pid = server.proc.pid!;
  const before = rssMb(pid);
  const rss = sampleRss(pid, 100);
  const t0 = process.hrtime.bigint();
  const started = await http(server, token, 'POST', `/rest/people/import?${query}`, { file });
  const uploadS = seconds(t0);
  if (started.status !== 202 && started.status !== 200) {
    rss.stop();
    throw new Error(`${label}: POST answered ${started.status} ${started.text}`);
  }
  let job = (JSON.parse(started.text) as { data: { import: Job } }).data.import;
  let lastRead = -1;
  let lastReport = Date.now();
  while (!['completed', 'failed', 'cancelled'].includes(job.state)) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const got = await http(server, token, 'GET', `/rest/imports/${job.id}`);
    if (got.status !== 200) throw new Error(`${label}: GET job answered ${got.status} ${got.text}`);
    job = (JSON.parse(got.text) as { data: { import: Job } }).data.import;
    if (Date.now() - lastReport > 10_000 && job.rows.read !== lastRead) {
      lastRead = job.rows.read;
      lastReport = Date.now();
      process.stderr.write(
        `  ${label}: ${job.state}, ${job.rows.read.toLocaleString('en')} rows read (${seconds(t0).toFixed(0)} s)\n`,
      );
    }
  }
  const s = seconds(t0);
  const peak = rss.stop();
  if (job.state !== 'completed') throw new Error(`${label}: job ended ${job.state}: ${JSON.stringify(job)}`);
  const serverS =
    job.finishedAt && job.createdAt ? (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000 : null;
  const run: ImportRun = {
    label,
    query,
    rows,
    s,
    uploadS,
    rowsPerS: Math.round(rows / s),
    serverS,
    job,
    rssBeforeMb: before,
    rssPeakMb: peak,
    rssGrowthMb:
      before !== undefined && peak !== undefined ? Math.max(0, peak - Math.max(before, warmPeakMb ?? 0)) : undefined,
    load: load(),
  };
  console.log(
    `${label}: ${s.toFixed(1)} s (upload ${uploadS.toFixed(1)} s), ${run.rowsPerS.toLocaleString('en')} rows/s, ` +
      `rows ${JSON.stringify(job.rows)}, RSS ${before?.toFixed(0)} -> peak ${peak?.toFixed(0)} MB (+${run.rssGrowthMb?.toFixed(1)}), load ${run.load}`,
  );
  return run;
}

/** `rows` people (0..rows-1) through POST /rest/batch/people, BATCH_SIZE at a time, one client, sequential. */
async function batchRun(server: TsServer, token: string, rows: number) {
  const ids = Array.from({ length: COMPANIES }, (_, i) => company(i).id);
  const t0 = process.hrtime.bigint();
  for (let start = 0; start < rows; start += BATCH_SIZE) {
    const body = [];
    for (let j = start; j < Math.min(rows, start + BATCH_SIZE); j++) {
      const p = personRow(j);
      body.push({
        name: { firstName: p.firstName, lastName: p.lastName },
        emails: { primaryEmail: p.email },
        phones: { primaryPhoneNumber: p.phoneNumber },
        city: p.city,
        jobTitle: p.jobTitle,
        companyId: ids[p.companyIndex],
        ...(PAD ? { avatarUrl: p.avatarUrl } : {}),
      });
    }
    const res = await http(server, token, 'POST', '/rest/batch/people', { json: body });
    if (res.status !== 201) throw new Error(`batch at row ${start}: ${res.status} ${res.text.slice(0, 500)}`);
  }
  const s = seconds(t0);
  const row = { rows, s, rowsPerS: Math.round(rows / s), load: load() };
  console.log(
    `batch ${BATCH_SIZE} at a time (1 client, sequential): ${rows.toLocaleString('en')} rows in ${s.toFixed(1)} s, ` +
      `${row.rowsPerS.toLocaleString('en')} rows/s, load ${row.load}`,
  );
  return row;
}

// ---------------------------------------------------------------------------------------------
// statements per checkpoint

/** The webhook dispatcher's poll (every instance, about once a second, import or not): not the import's work. */
const DISPATCHER = /^UPDATE "webhookDelivery" d SET "nextAttemptAt"/;

/**
 * Imports `file` (atomic=false) through a server whose database connection goes through the
 * recording proxy, and counts the statements it sent between the POST and the job's end, minus
 * those of the job polls (the statements one GET of a job sends, found beforehand) and the API
 * key lookups; per distinct statement and per checkpoint.
 */
async function statementsPerCheckpoint(
  capture: SqlCapture,
  server: TsServer,
  token: string,
  db: Client,
  file: string,
  rows: number,
  warmFile: string,
) {
  await reset(db);
  // the statements of a job poll: one GET of a finished job (a small warm-up import)
  const warm = await importOnce(server, token, 'sql-check warm-up', warmFile, 'atomic=false&webhooks=summary', 2000);
  await reset(db);
  const since = Date.now();
  await http(server, token, 'GET', `/rest/imports/${warm.job.id}`);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const poll = new Set(capture.since(since).filter((sql) => !NOISE.test(sql)));
  // drain the recorded statements as they come, into counts (a 500,000-row run binds GBs of values)
  capture.statements.splice(0);
  const counts = new Map<string, number>();
  let background = 0;
  let counting = true;
  const drain = () => {
    for (const s of capture.statements.splice(0)) {
      if (!counting || NOISE.test(s.sql) || poll.has(s.sql)) continue;
      if (DISPATCHER.test(s.sql)) {
        background++;
        continue;
      }
      const key = s.sql.replace(/\$\d+/g, '$n').slice(0, 160);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  };
  const timer = setInterval(drain, 250);
  const run = await importOnce(
    server,
    token,
    `sql-check ${rows.toLocaleString('en')}`,
    file,
    'atomic=false&webhooks=summary',
    rows,
  );
  drain();
  counting = false;
  clearInterval(timer);
  const checkpoints = Math.ceil(rows / CHECKPOINT_ROWS);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const breakdown = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([sql, n]) => ({ n, perCheckpoint: Number((n / checkpoints).toFixed(2)), sql }));
  console.log(
    `statements at ${rows.toLocaleString('en')} rows: ${total.toLocaleString('en')} in ${checkpoints} checkpoints, ` +
      `${(total / checkpoints).toFixed(2)} per checkpoint (through the proxy: ${run.s.toFixed(1)} s; ` +
      `${background} polls of the webhook dispatcher left out)`,
  );
  for (const b of breakdown.slice(0, 25))
    console.log(`  ${String(b.n).padStart(7)}  ${String(b.perCheckpoint).padStart(6)}/cp  ${b.sql}`);
  return { rows, checkpoints, total, perCheckpoint: total / checkpoints, background, breakdown, s: run.s };
}

// ---------------------------------------------------------------------------------------------

async function main() {
  mkdirSync(RESULTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'crm-bench-import-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const servers: TsServer[] = [];
  const started = new Date().toISOString();
  const loadAtStart = load();
  console.log(
    `import benchmark: ${ROWS.toLocaleString('en')} people, ${COMPANIES.toLocaleString('en')} companies, ${RUNS} run(s); load ${loadAtStart}`,
  );
  try {
    const files = await generateFiles(dir);
    const url = await createDatabase();
    const db = await connect(url);
    const key = await createBenchKey(db);
    const token = key.token;
    const profile = flag('--cpu-prof') ? join(RESULTS, `import-${STAMP}.cpuprofile`) : undefined;
    const service = await startService(url, 3311, dataDir, profile);
    servers.push(service);

    // warm-up: a first small import (code paths loaded, JIT), not measured
    await reset(db);
    const warmFile = join(dir, 'warm.csv');
    await writeLines(warmFile, csvLine(IMPORT_HEADER), 2000, (k) =>
      csvLine([
        `W${k}`,
        'Warm',
        `warm${k}@example.com`,
        '1',
        'Paris',
        'x',
        company(k % COMPANIES).domain,
        ...(PAD ? ['x'] : []),
      ]),
    );
    warmPeakMb = (await importOnce(service, token, 'warm-up (2,000 rows)', warmFile, 'atomic=false', 2000)).rssPeakMb;

    const results: Record<string, unknown> = {};
    const baseline: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      await reset(db);
      const s = await copyIn(db, files.insertCopy);
      baseline.push(s);
      console.log(`bare COPY: ${s.toFixed(1)} s, ${Math.round(ROWS / s).toLocaleString('en')} rows/s, load ${load()}`);
    }
    const copyS = median(baseline);
    results.copy = { runs: baseline, s: copyS, rowsPerS: Math.round(ROWS / copyS) };

    const scenario = async (name: string, file: string, query: string, rows: number, prepare?: () => Promise<void>) => {
      const runs: ImportRun[] = [];
      for (let r = 0; r < RUNS; r++) {
        await reset(db);
        if (prepare) await prepare();
        runs.push(await importOnce(service, token, name, file, query, rows));
      }
      const s = median(runs.map((x) => x.s));
      return { runs, s, rowsPerS: Math.round(rows / s), rssGrowthMb: Math.max(...runs.map((x) => x.rssGrowthMb ?? 0)) };
    };
    type Measured = Awaited<ReturnType<typeof scenario>>;
    const insertNonAtomic = want('a')
      ? await scenario('a) insert, atomic=false', files.insert, 'atomic=false&webhooks=summary', ROWS)
      : undefined;
    const insertAtomic = want('b')
      ? await scenario('b) insert, atomic=true', files.insert, 'atomic=true&webhooks=summary', ROWS)
      : undefined;
    const preload = async () => {
      await copyIn(db, files.insertCopy);
      await db.query('VACUUM ANALYZE person');
      await db.query('CHECKPOINT');
    };
    let upsert: Measured | undefined;
    let upsertSqlS: number | undefined;
    if (want('c')) {
      upsert = await scenario(
        'c) upsert 50/50',
        files.upsert,
        'operation=upsert&atomic=true&webhooks=summary',
        ROWS,
        preload,
      );
      const upsertSql: { s: number; updated: number; created: number }[] = [];
      for (let r = 0; r < RUNS; r++) {
        await reset(db);
        await preload();
        const u = await sqlUpsert(db, files.upsertCopy);
        upsertSql.push(u);
        console.log(
          `bare SQL upsert (COPY to temp, UPDATE, INSERT): ${u.s.toFixed(1)} s, updated ${u.updated}, created ${u.created}, load ${load()}`,
        );
      }
      upsertSqlS = median(upsertSql.map((u) => u.s));
      results.upsertSql = { runs: upsertSql, s: upsertSqlS };
    }
    const dryRun = want('d')
      ? await scenario('d) dry run, atomic=true', files.insert, 'dry_run=true&atomic=true&webhooks=summary', ROWS)
      : undefined;
    const small =
      SMALL < ROWS
        ? {
            nonAtomic: want('f')
              ? await scenario('f) insert 50k, atomic=false', files.small, 'atomic=false&webhooks=summary', SMALL)
              : undefined,
            atomic: want('f')
              ? await scenario('f) insert 50k, atomic=true', files.small, 'atomic=true&webhooks=summary', SMALL)
              : undefined,
          }
        : { nonAtomic: insertNonAtomic, atomic: insertAtomic };
    let batch: Awaited<ReturnType<typeof batchRun>> | undefined;
    let batchS: number | undefined;
    if (want('e')) {
      await reset(db);
      batch = await batchRun(service, token, BATCH_ROWS);
      batchS = (batch.s * ROWS) / BATCH_ROWS;
      results.batch = { ...batch, extrapolatedS: batchS, extrapolated: BATCH_ROWS < ROWS };
    }
    Object.assign(results, { insertNonAtomic, insertAtomic, upsert, dryRun, small });
    await stopService(service);

    if (want('sql')) {
      const capture = new SqlCapture('127.0.0.1', Number(new URL(url).port || 5432));
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(await capture.start());
      const proxied = await startService(u.toString(), 3312, dataDir);
      servers.push(proxied);
      const sql: unknown[] = [];
      try {
        sql.push(await statementsPerCheckpoint(capture, proxied, token, db, files.small, SMALL, warmFile));
        if (SMALL < ROWS)
          sql.push(await statementsPerCheckpoint(capture, proxied, token, db, files.insert, ROWS, warmFile));
      } finally {
        await stopService(proxied);
        await capture.stop();
      }
      results.statements = sql;
    }
    await db.end();

    // the table
    const ratio = (s: number) => `${(s / copyS).toFixed(2)}x`;
    const measured: [string, Measured | undefined, number][] = [
      ['a) insert, atomic=false', insertNonAtomic, ROWS],
      ['b) insert, atomic=true', insertAtomic, ROWS],
      ['c) upsert 50/50, atomic=true', upsert, ROWS],
      ['d) dry run, atomic=true', dryRun, ROWS],
      ...(SMALL < ROWS
        ? ([
            ['f) insert, atomic=false', small.nonAtomic, SMALL],
            ['f) insert, atomic=true', small.atomic, SMALL],
          ] as [string, Measured | undefined, number][])
        : []),
    ];
    const table: string[][] = [
      ['scenario', 'rows', 'time s', 'rows/s', 'x bare COPY', 'RSS growth MB'],
      [
        'bare COPY (baseline)',
        ROWS.toLocaleString('en'),
        copyS.toFixed(1),
        Math.round(ROWS / copyS).toLocaleString('en'),
        '1.00x',
        '',
      ],
      ...measured
        .filter(([, x]) => x)
        .map(([label, x, rows]) => [
          label,
          rows.toLocaleString('en'),
          x!.s.toFixed(1),
          x!.rowsPerS.toLocaleString('en'),
          rows === ROWS ? ratio(x!.s) : '',
          x!.rssGrowthMb.toFixed(1),
        ]),
    ];
    if (upsertSqlS !== undefined)
      table.push([
        'bare SQL upsert (temp + UPDATE + INSERT)',
        ROWS.toLocaleString('en'),
        upsertSqlS.toFixed(1),
        Math.round(ROWS / upsertSqlS).toLocaleString('en'),
        ratio(upsertSqlS),
        '',
      ]);
    if (batch && batchS !== undefined)
      table.push([
        `e) /batch/people ${BATCH_SIZE} at a time, 1 client${BATCH_ROWS < ROWS ? ` (${BATCH_ROWS.toLocaleString('en')} rows, extrapolated)` : ''}`,
        ROWS.toLocaleString('en'),
        batchS.toFixed(1),
        batch.rowsPerS.toLocaleString('en'),
        ratio(batchS),
        '',
      ]);
    const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
    console.log(
      `\n${table.map((row) => `| ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`).join('\n')}`,
    );
    const both = <A, B>(a: A | undefined, b: B | undefined, f: (a: A, b: B) => number) =>
      a !== undefined && b !== undefined ? f(a, b) : undefined;
    const targets: [string, number | undefined, number, 'le' | 'ge' | 'lt' | 'within'][] = [
      ['insert-only (atomic=true) <= 3.0x bare COPY', insertAtomic && insertAtomic.s / copyS, 3.0, 'le'],
      ['insert-only (atomic=false) <= 3.0x bare COPY', insertNonAtomic && insertNonAtomic.s / copyS, 3.0, 'le'],
      ['50/50 upsert <= 4.0x bare COPY', upsert && upsert.s / copyS, 4.0, 'le'],
      ['>= 5x faster than /batch 200 at a time (atomic=true)', both(batchS, insertAtomic, (b, x) => b / x.s), 5, 'ge'],
      [
        '>= 5x faster than /batch 200 at a time (atomic=false)',
        both(batchS, insertNonAtomic, (b, x) => b / x.s),
        5,
        'ge',
      ],
      ['RSS growth < 64 MiB (a)', insertNonAtomic?.rssGrowthMb, 64, 'lt'],
      ['RSS growth < 64 MiB (b)', insertAtomic?.rssGrowthMb, 64, 'lt'],
      [
        'rows/s at 50k vs N within 20 % (atomic=false)',
        both(small.nonAtomic, insertNonAtomic, (a, b) => a.rowsPerS / b.rowsPerS),
        1.2,
        'within',
      ],
      [
        'rows/s at 50k vs N within 20 % (atomic=true)',
        both(small.atomic, insertAtomic, (a, b) => a.rowsPerS / b.rowsPerS),
        1.2,
        'within',
      ],
      ['dry run <= 0.5x real import (atomic=true)', both(dryRun, insertAtomic, (a, b) => a.s / b.s), 0.5, 'le'],
    ];
    const verdicts = targets
      .filter(([, value]) => value !== undefined)
      .map(([name, value, bound, kind]) => {
        const v = value!;
        const met =
          kind === 'le'
            ? v <= bound
            : kind === 'ge'
              ? v >= bound
              : kind === 'lt'
                ? v < bound
                : v <= bound && v >= 1 / bound;
        console.log(`${met ? 'met    ' : 'NOT met'}  ${name}: ${v.toFixed(2)}`);
        return { name, value: v, bound, met };
      });
    const file = join(RESULTS, `import-${STAMP}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        {
          started,
          finished: new Date().toISOString(),
          rows: ROWS,
          companies: COMPANIES,
          runs: RUNS,
          batchRows: BATCH_ROWS,
          loadAtStart,
          loadAtEnd: load(),
          node: process.version,
          results,
          verdicts,
          profile,
        },
        null,
        2,
      ),
    );
    console.log(`\nwritten ${file}${profile ? ` and ${profile}` : ''}; load ${load()}`);
  } finally {
    for (const server of servers) await stopService(server).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

const mode = process.argv[2];
if (mode === '--serve-service')
  serveService().catch((error) => {
    console.error(error);
    process.exit(1);
  });
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
