import { createServer } from 'node:http';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { tokenOf, positionOf } from '../src/core/changes/change-tokens';
import { startTsServer, TsServer } from './lib/ts-server';
import { changesPageSql, LOCK_SEQUENCER_SQL, sequenceSql } from '../src/core/repository/change-feed.statements';

/**
 * Change-feed read benchmark (API.md section 15; issue: "feed read of 100,000 changes, pages of
 * 1,000, beside a bare node:http + pg baseline doing the same SQL"). Usage:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node --transpile-only bench/feed-read.ts
 * Uses the database of bench/export.ts (`crm_bench_export_100k`, created and migrated by it when
 * missing), fills the feed to 100,000 entries of people (their rows as records) when it holds
 * fewer, then reads the whole feed with `GET /changes?since=&limit=1000` from the service (Express,
 * started from source as bench/export.ts does) and from a baseline: node:http + pg running the
 * same statements (the sequencer's transaction, then the page) and answering the same envelope.
 * Rounds alternate; every read must return every entry.
 */
const ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ENTRIES = 100_000;
const PAGE = 1000;
const ROUNDS = 3;

function databaseUrl(): string {
  const u = new URL(ADMIN);
  u.pathname = '/crm_bench_export_100k';
  return u.toString();
}

/** node:http + pg: the sequencer's transaction and the page statement, the envelope of the service. */
function serveBaseline(): void {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10, options: '-c TimeZone=UTC -c jit=off' });
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      const since = positionOf(url.searchParams.get('since') ?? '');
      const limit = Number(url.searchParams.get('limit') ?? 200);
      if (since === undefined) return void res.writeHead(400).end();
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(LOCK_SEQUENCER_SQL);
        await client.query(sequenceSql());
        await client.query('COMMIT');
      } finally {
        client.release();
      }
      const { text, values } = changesPageSql('all', since, limit + 1);
      const rows = (await pool.query(text, values)).rows.filter((r) => r.pos !== null);
      const page = rows.slice(0, limit);
      const hasNextPage = rows.length > limit;
      const last = page.length ? Number(page[page.length - 1].pos) : since;
      const head = Number(rows[0]?.head ?? since);
      const changes = page.map((r) => ({
        id: tokenOf(Number(r.pos)),
        eventName: r.eventName,
        collection: r.collection,
        recordId: r.recordId,
        occurredAt: r.occurredAt,
        apiKeyId: r.apiKeyId,
        record: r.record,
        ...(r.eventName.endsWith('.updated') ? { updatedFields: r.updatedFields ?? [] } : {}),
      }));
      const endCursor = tokenOf(hasNextPage ? last : Math.max(last, head, since));
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ data: { changes }, pageInfo: { hasNextPage, endCursor } }));
    } catch (error) {
      res.writeHead(500).end(String(error));
    }
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(`READY ${process.env.PORT}`));
}

type Server = TsServer;

/** Reads the whole feed from the start in pages of PAGE; answers the entries read and the time. */
async function readAll(server: Server, path: string): Promise<{ read: number; ms: number }> {
  const headers: Record<string, string> = server.token ? { authorization: `Bearer ${server.token}` } : {};
  let cursor = tokenOf(0);
  let read = 0;
  const t0 = process.hrtime.bigint();
  for (;;) {
    const res = await fetch(`http://127.0.0.1:${server.port}${path}?since=${cursor}&limit=${PAGE}`, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    const page = (await res.json()) as {
      data: { changes: unknown[] };
      pageInfo: { hasNextPage: boolean; endCursor: string };
    };
    read += page.data.changes.length;
    cursor = page.pageInfo.endCursor;
    if (!page.pageInfo.hasNextPage) return { read, ms: Number(process.hrtime.bigint() - t0) / 1e6 };
  }
}

async function main(): Promise<void> {
  const url = databaseUrl();
  const exportBench = join(__dirname, 'export.ts');
  // the service: created, migrated and started as bench/export.ts starts it
  const admin = new Client({ connectionString: ADMIN });
  await admin.connect();
  if (!(await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'crm_bench_export_100k'`)).rowCount)
    await admin.query('CREATE DATABASE "crm_bench_export_100k"');
  await admin.end();
  const service = await startTsServer(exportBench, '--serve-service', { DATABASE_URL: url }, 3311);
  const baseline = await startTsServer(__filename, '--serve-baseline', { DATABASE_URL: url }, 3312);
  try {
    const db = new Client({ connectionString: url });
    await db.connect();
    const [{ n }] = (await db.query('SELECT count(*)::int AS n FROM "_changes"')).rows;
    if (n < ENTRIES) {
      process.stderr.write(`filling the feed to ${ENTRIES} entries... `);
      await db.query(
        `INSERT INTO "_changes" ("eventName", "collection", "recordId", "record")
         SELECT 'person.created', 'people', gen_random_uuid(), jsonb_build_object('id', gen_random_uuid(), 'city', 'City ' || g,
           'name', jsonb_build_object('firstName', 'First' || g, 'lastName', 'Last ' || g), 'jobTitle', 'Job ' || (g % 97),
           'emails', jsonb_build_object('primaryEmail', 'p' || g || '@example.com', 'additionalEmails', '[]'::jsonb), 'position', g)
         FROM generate_series(1, $1::int) g`,
        [ENTRIES - n],
      );
      await db.query('VACUUM ANALYZE "_changes"');
      process.stderr.write('done\n');
    }
    const [{ total }] = (await db.query('SELECT count(*)::int AS total FROM "_changes"')).rows;
    await db.end();
    await readAll(service, '/rest/changes'); // warm-up (and the sequencer gives every entry its position)
    await readAll(baseline, '/changes');
    const rate = (r: { read: number; ms: number }) => Math.round((r.read / r.ms) * 1000);
    for (let round = 1; round <= ROUNDS; round++) {
      const targets = round % 2 ? [service, baseline] : [baseline, service];
      const results = new Map<Server, { read: number; ms: number }>();
      for (const target of targets)
        results.set(target, await readAll(target, target === service ? '/rest/changes' : '/changes'));
      const s = results.get(service)!;
      const b = results.get(baseline)!;
      if (s.read !== total || b.read !== total) throw new Error(`read ${s.read} / ${b.read} of ${total} entries`);
      console.log(
        `round ${round}: ${total.toLocaleString('en')} changes in pages of ${PAGE}: service ${rate(s).toLocaleString('en')}/s ` +
          `(${s.ms.toFixed(0)} ms), baseline ${rate(b).toLocaleString('en')}/s (${b.ms.toFixed(0)} ms), ratio ${(b.ms / s.ms).toFixed(2)}`,
      );
    }
  } finally {
    service.proc.kill();
    baseline.proc.kill();
  }
}

if (process.argv[2] === '--serve-baseline') serveBaseline();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
