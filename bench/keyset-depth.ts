import 'reflect-metadata';
import { Client } from 'pg';
import { createApp } from '../src/app.factory';
import { createApiKey } from '../src/collections/api-keys/first-api-key';
import { encodeCursor } from '../src/core/query/cursor';
import { KeyRing } from '../src/core/security/keys';

/**
 * Keyset depth benchmark: seeds PostgreSQL with N people (default 1,000,000), then measures the
 * latency of the first page and of a deep page (page 5,000 at limit 200, reached by cursor),
 * through the real service. Usage:
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node --transpile-only bench/keyset-depth.ts [--rows 1000000]
 * A database `crm_bench_keyset` is created (or reused when it already holds the rows).
 */
const admin = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rowsArg = process.argv.indexOf('--rows');
const ROWS = rowsArg > 0 ? Number(process.argv[rowsArg + 1]) : 1_000_000;
const LIMIT = 200;
const DEEP_PAGE = Math.min(5000, Math.floor(ROWS / LIMIT));

function withDb(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function seed(url: string): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const [{ n }] = (await client.query('SELECT count(*)::int AS n FROM person')).rows;
  if (n >= ROWS) return void (await client.end());
  process.stdout.write(`seeding ${ROWS} people`);
  const chunk = 100_000;
  for (let start = n; start < ROWS; start += chunk) {
    await client.query(
      `INSERT INTO person ("nameFirstName", "nameLastName", "emailsPrimaryEmail", "jobTitle", city, position)
       SELECT 'First' || g, 'Last' || (g % 9973), 'person' || g || '@example.com', 'Job ' || (g % 97), 'City ' || (g % 311), g
       FROM generate_series($1::int, $2::int) g`,
      [start + 1, Math.min(start + chunk, ROWS)],
    );
    process.stdout.write('.');
  }
  await client.query('ANALYZE person');
  await client.end();
  process.stdout.write(' done\n');
}

async function latency(run: () => Promise<number>, count: number): Promise<{ p50: number; p90: number }> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    const status = await run();
    if (status !== 200) throw new Error(`status ${status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count / 2)], p90: times[Math.floor(count * 0.9)] };
}

async function main() {
  const name = 'crm_bench_keyset';
  const client = new Client({ connectionString: admin });
  await client.connect();
  const exists = (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
  if (!exists) await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = withDb(admin, name);
  const { app } = await createApp({
    env: {
      DATABASE_URL: url,
      ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
      LOG_LEVEL: 'error',
      BOOTSTRAP_API_KEY: 'false',
    },
  });
  await app.listen(0, '127.0.0.1');
  await seed(url);
  const base = `${await app.getUrl()}/rest`;
  const { token } = await createApiKey(app, 'bench', new Date(Date.now() + 3600_000));
  const headers = { authorization: `Bearer ${token}` };
  const get = (path: string) => fetch(base + path, { headers });

  // The cursor of the last record before page DEEP_PAGE, exactly as the API would sign it
  // (walking 5,000 pages first would only measure the walk).
  const db = new Client({ connectionString: url });
  await db.connect();
  const offset = (DEEP_PAGE - 1) * LIMIT - 1;
  const [{ id }] = (
    await db.query('SELECT id FROM person WHERE "deletedAt" IS NULL ORDER BY id LIMIT 1 OFFSET $1', [offset])
  ).rows;
  await db.end();
  const cursor = encodeCursor(app.get(KeyRing).cursorKey, { s: 'id:AL', v: [id] });
  for (const [label, query] of [
    ['depth=0, with exact totalCount', `depth=0&limit=${LIMIT}`],
    ['depth=0, fields=id,name', `depth=0&limit=${LIMIT}&fields=id,name`],
  ] as const) {
    const first = await latency(async () => (await get(`/people?${query}`)).status, 30);
    const deep = await latency(async () => (await get(`/people?${query}&starting_after=${cursor}`)).status, 30);
    console.log(
      `${label}: first page p50 ${first.p50.toFixed(1)} ms (p90 ${first.p90.toFixed(1)}), ` +
        `page ${DEEP_PAGE} p50 ${deep.p50.toFixed(1)} ms (p90 ${deep.p90.toFixed(1)}), ratio ${(deep.p50 / first.p50).toFixed(2)}`,
    );
  }
  await app.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
