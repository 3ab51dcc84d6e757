import type { Json } from '../support/http';
import { ALL_COLLECTIONS, createRecord, unique } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import type { CollectionMeta } from '../../src/core/model/collection-meta';

/** What a CSV cell must carry back: quotes, commas, CR LF, bare LF and CR, tabs, spaces, non-ASCII. */
const TRICKY = 'Zoë "the" O\'Brien, Jr.\r\nline two\nbare\rcr\ttab  日本 ';

/** Collections whose records an import cannot make: API keys (their token is shown once, at creation). */
const NOT_IMPORTABLE = new Set(['apiKeys']);

/** The collections in an order where every collection comes after those its required relations point at. */
function dependencyOrder(metas: CollectionMeta[]): CollectionMeta[] {
  const done = new Set<string>();
  const order: CollectionMeta[] = [];
  const visit = (meta: CollectionMeta, path: Set<string>) => {
    if (done.has(meta.plural) || path.has(meta.plural)) return;
    path.add(meta.plural);
    for (const relation of meta.manyToOne) {
      const target = metas.find((m) => m.plural === relation.target);
      if (target) visit(target, path);
    }
    done.add(meta.plural);
    order.push(meta);
  };
  metas.forEach((meta) => visit(meta, new Set()));
  return order;
}

/**
 * The export → import round trip (API.md sections 15 and 17) of every collection: its CSV export,
 * tricky values included, imported with `operation=upsert` into the same service changes nothing
 * (every row `unchanged`, no change in the feed); imported into an empty service it reproduces
 * every record with its id, values and createdAt. This is also how a deployment moves from the
 * embedded database to a PostgreSQL server (docs/operations.md).
 */
describe('import: the round trip of every collection', () => {
  let from: TestApp;
  let to: TestApp;
  const collections = dependencyOrder(ALL_COLLECTIONS.filter((m) => !NOT_IMPORTABLE.has(m.plural)));

  beforeAll(async () => {
    [from, to] = await Promise.all([startTestApp(), startTestApp()]);
    for (const meta of collections) {
      const tricky: Record<string, unknown> = {};
      for (const field of meta.fields)
        if (field.type === 'TEXT' && !field.httpUrl && !field.readOnly && !field.relation)
          tricky[field.name] = field.unique ? `${TRICKY}${unique()}` : TRICKY;
      await createRecord(from.http, meta.plural);
      await createRecord(from.http, meta.plural, tricky);
    }
  }, 300_000);
  afterAll(async () => Promise.all([from?.close(), to?.close()]));

  const importCsv = (app: TestApp, plural: string, body: string, query: string) =>
    app.http.request('POST', `/${plural}/import${query}`, {
      raw: body,
      headers: { 'content-type': 'text/csv', prefer: 'wait=60' },
    });
  const records = async (app: TestApp, plural: string) =>
    (await app.http.get(`/${plural}/export?format=ndjson`)).text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Json);

  it('an export imported with operation=upsert into the same service changes nothing', async () => {
    const head = (await from.http.get('/changes/head')).body.data.token;
    for (const meta of collections) {
      const csv = (await from.http.get(`/${meta.plural}/export?format=csv`)).text;
      const res = await importCsv(from, meta.plural, csv, '?operation=upsert');
      const job = res.body.data?.import ?? res.body;
      const read = csv.split('\r\n').length - 2; // no line break inside these values but the tricky ones, counted below
      expect({ collection: meta.plural, state: job.state }).toEqual({ collection: meta.plural, state: 'completed' });
      expect({ collection: meta.plural, ...job.rows, read: undefined }).toEqual({
        collection: meta.plural,
        read: undefined,
        created: 0,
        updated: 0,
        failed: 0,
        unprocessed: 0,
        unchanged: job.rows.read,
      });
      expect(job.rows.read).toBeGreaterThanOrEqual(2);
      expect(read).toBeGreaterThanOrEqual(job.rows.read);
    }
    expect((await from.http.get(`/changes?since=${head}`)).body.data.changes).toEqual([]);
  });

  it('imported into an empty service, it reproduces every record: ids, values, createdAt', async () => {
    for (const meta of collections) {
      const csv = (await from.http.get(`/${meta.plural}/export?format=csv`)).text;
      const res = await importCsv(to, meta.plural, csv, '?operation=upsert');
      const job = res.body.data?.import ?? res.body;
      expect({ collection: meta.plural, state: job.state, message: job.message }).toEqual({
        collection: meta.plural,
        state: 'completed',
        message: undefined,
      });
      const copies = new Map((await records(to, meta.plural)).map((r) => [r.id, r]));
      for (const original of await records(from, meta.plural)) {
        const copy = copies.get(original.id);
        const { updatedAt: _a, ...expected } = original;
        const { updatedAt: _b, ...actual } = copy ?? {};
        expect({ collection: meta.plural, record: actual }).toEqual({ collection: meta.plural, record: expected });
      }
    }
  });

  it('a job that grows a table analyzes it (its lookups planned for its size), and forgets its keys when it ends', async () => {
    // the planner's row count of a table never analyzed here (autovacuum is off on the test server)
    const reltuples = async () =>
      (
        await from.db.query<{ n: number }>(
          `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = '"person"'::regclass`,
        )
      )[0].n;
    expect(await reltuples()).toBeLessThan(10_000);
    const lines = ['emails.primaryEmail,city'];
    for (let i = 0; i < 10_000; i++) lines.push(`g${i}@growth.example,Growth`);
    const job = (await importCsv(from, 'people', lines.join('\n') + '\n', '?atomic=false')).body.data.import;
    expect(job).toMatchObject({ state: 'completed', rows: { created: 10_000 } });
    expect(await reltuples()).toBeGreaterThanOrEqual(10_000);
    const keys = await from.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "_import_keys" WHERE "importId" = $1',
      [job.id],
    );
    expect(keys[0].n).toBe(0);
  });
});
