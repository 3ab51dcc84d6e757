import { Pool } from 'pg';
import { changesPageSql, LOCK_SEQUENCER_SQL, sequenceSql } from '../src/core/repository/change-feed.statements';

/**
 * Change-feed read benchmark (rough; not yet a scenario of `npm run bench`): reads the whole feed
 * in pages of 1,000 through a running service (`GET /changes`), then the same statements
 * (sequencer transaction + page) straight through `pg` with the JSON serialised but no HTTP.
 * The feed must already hold the entries (e.g. 100,000). Usage:
 *   BENCH_URL=http://127.0.0.1:3000/rest BENCH_TOKEN=crm_... BENCH_DATABASE_URL=postgres://... \
 *     npx ts-node --transpile-only bench/feed-read.ts
 */
const base = process.env.BENCH_URL ?? 'http://127.0.0.1:3000/rest';
const headers = { authorization: `Bearer ${process.env.BENCH_TOKEN}` };
const PAGE = 1000;

interface Page {
  data: { changes: unknown[] };
  pageInfo: { hasNextPage: boolean; endCursor: string };
}

async function throughService(): Promise<number> {
  let since: Page;
  let cursor = 'YzA';
  let read = 0;
  for (;;) {
    since = (await (await fetch(`${base}/changes?since=${cursor}&limit=${PAGE}`, { headers })).json()) as Page;
    read += since.data.changes.length;
    cursor = since.pageInfo.endCursor;
    if (!since.pageInfo.hasNextPage) return read;
  }
}

async function throughPg(pool: Pool): Promise<number> {
  let pos = 0;
  let read = 0;
  for (;;) {
    const client = await pool.connect();
    await client.query('BEGIN');
    await client.query(LOCK_SEQUENCER_SQL);
    await client.query(sequenceSql());
    await client.query('COMMIT');
    client.release();
    const { text, values } = changesPageSql('all', pos, PAGE + 1);
    const rows = (await pool.query<{ pos: string | null }>(text, values)).rows.filter((r) => r.pos !== null);
    JSON.stringify({ data: { changes: rows.slice(0, PAGE) } });
    read += Math.min(rows.length, PAGE);
    if (rows.length <= PAGE) return read;
    pos = Number(rows[PAGE - 1].pos);
  }
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 2 });
  for (let round = 1; round <= 3; round++) {
    let at = Date.now();
    const service = await throughService();
    const serviceMs = Date.now() - at;
    at = Date.now();
    const bare = await throughPg(pool);
    const bareMs = Date.now() - at;
    const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
    console.log(
      `round ${round}: service ${service} changes in ${serviceMs} ms (${rate(service, serviceMs)}/s); ` +
        `pg ${bare} in ${bareMs} ms (${rate(bare, bareMs)}/s); ratio ${(bareMs / serviceMs).toFixed(2)}`,
    );
  }
  await pool.end();
}

void main();
