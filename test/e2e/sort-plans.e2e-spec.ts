import { catalog } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

/**
 * Query plans of sorted lists (issue 14, fix 4): every `order_by` direction on an indexed
 * sortable field, on the first page and on the pages a cursor reaches forward and backward, is
 * an ordered index scan: no sequential scan of the table and no sort. The statements checked are
 * the ones the service sends (captured under the pool while real requests run), at a size where
 * the planner prefers an index that fits the ORDER BY.
 */
const ROWS = 20_000;
const DIRECTIONS = ['AscNullsFirst', 'AscNullsLast', 'DescNullsFirst', 'DescNullsLast'] as const;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

describe('sort plans: each order_by direction on an indexed field is an index scan', () => {
  let t: TestApp;
  /** List statements seen by the pool while `capture` runs. */
  let captured: { text: string; values: unknown[] }[] | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    const pool = t.db.pool as unknown as { query: (...args: unknown[]) => Promise<unknown> };
    const query = pool.query.bind(pool);
    pool.query = (config: unknown, ...rest: unknown[]) => {
      const statement =
        typeof config === 'string'
          ? { text: config, values: rest[0] as unknown[] }
          : (config as { text: string; values?: unknown[] });
      if (captured && /\bORDER BY\b/.test(statement.text))
        captured.push({ text: statement.text, values: statement.values ?? [] });
      return query(config, ...rest);
    };
    // duplicates in every sort key (ties broken by id) and, on people, NULL names (a cleared
    // composite: both sub-fields NULL) so that cursors land on NULL and non-NULL values
    await t.db.query(
      `INSERT INTO company (name, "domainNamePrimaryLinkUrl", position, "createdAt")
       SELECT 'company ' || lpad((g % 5000)::text, 4, '0'), 'https://c' || g || '.example.com', (g % 1000)::float8,
              timestamptz '2026-01-01 00:00:00+00' + (g % 7000) * interval '1 second'
       FROM generate_series(1, ${ROWS}) AS g`,
    );
    await t.db.query(
      `INSERT INTO person ("nameFirstName", "nameLastName", "emailsPrimaryEmail", position, "createdAt")
       SELECT CASE WHEN g % 10 = 0 THEN NULL ELSE 'first ' || lpad((g % 3000)::text, 4, '0') END,
              CASE WHEN g % 10 = 0 THEN NULL ELSE 'last ' || lpad((g % 4000)::text, 4, '0') END,
              'p' || g || '@example.com', (g % 1000)::float8,
              timestamptz '2026-01-01 00:00:00+00' + (g % 7000) * interval '1 second'
       FROM generate_series(1, ${ROWS}) AS g`,
    );
    await t.db.query('ANALYZE company');
    await t.db.query('ANALYZE person');
  });
  afterAll(async () => t?.close());

  /** The list statements the service sends for one request. */
  async function statementsOf(
    path: string,
  ): Promise<{ body: Json; statements: { text: string; values: unknown[] }[] }> {
    captured = [];
    try {
      const res = await t.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      return { body: res.body, statements: captured };
    } finally {
      captured = undefined;
    }
  }

  /** Plan nodes that mean "the index did not give the order": a sequential scan or a sort. */
  async function offendingNodes(table: string, statement: { text: string; values: unknown[] }): Promise<string[]> {
    const [row] = await t.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON) ${statement.text}`,
      statement.values,
    );
    const plan = row['QUERY PLAN'][0].Plan;
    const all = nodes(plan);
    const bad = all.filter(
      (n) =>
        (n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table) ||
        n['Node Type'] === 'Sort' ||
        n['Node Type'] === 'Incremental Sort',
    );
    const indexed = all.some((n) => /Index/.test(n['Node Type']) && n['Relation Name'] === table);
    return [...bad.map((n) => n['Node Type']), ...(indexed ? [] : ['no index scan'])];
  }

  /** Sortable fields of a collection whose column leads a plain btree index (join columns aside). */
  async function indexedSortableFields(plural: string): Promise<string[]> {
    const meta = catalog.require(plural);
    const leading = await t.db.query<{ column: string }>(
      `SELECT DISTINCT a.attname AS column
       FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid JOIN pg_am am ON am.oid = (SELECT relam FROM pg_class WHERE oid = i.indexrelid)
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
       WHERE c.relname = $1 AND am.amname = 'btree' AND i.indpred IS NULL`,
      [meta.table],
    );
    // indexes on join columns serve relation loading; a sort by a foreign id is not a use case
    const joinColumns = new Set(meta.manyToOne.map((r) => r.joinColumn));
    const pathOf = new Map<string, string>([
      ['id', 'id'],
      ['createdAt', 'createdAt'],
      ['updatedAt', 'updatedAt'],
      ['deletedAt', 'deletedAt'],
    ]);
    for (const col of meta.columns)
      pathOf.set(col.column, col.sub ? `${col.field.name}.${col.sub.name}` : col.field.name);
    return leading
      .map((r) => r.column)
      .filter((column) => pathOf.has(column) && !joinColumns.has(column))
      .map((column) => pathOf.get(column)!)
      .sort();
  }

  /** Id of a row in the middle of the table, and of one in the middle of the NULLs of a column. */
  async function middleIds(table: string, column: string): Promise<string[]> {
    const middle = await t.db.query<{ id: string }>(
      `SELECT id FROM "${table}" WHERE "${column}" IS NOT NULL ORDER BY "${column}", id OFFSET ${ROWS / 2} LIMIT 1`,
    );
    const nulls = await t.db.query<{ id: string }>(
      `SELECT id FROM "${table}" WHERE "${column}" IS NULL ORDER BY id OFFSET 500 LIMIT 1`,
    );
    return [...middle, ...nulls].map((r) => r.id);
  }

  it.each([
    ['companies', 'company', ['createdAt', 'domainName.primaryLinkUrl', 'id', 'name', 'position']],
    ['people', 'person', ['createdAt', 'emails.primaryEmail', 'id', 'name.firstName', 'name.lastName', 'position']],
  ])(
    '%s: first page, and pages after / before cursors at the start, middle and in the NULLs, of every direction',
    async (plural, table, expectedFields) => {
      const fields = await indexedSortableFields(plural);
      // the fields come from the database; this guards against a test that checks nothing
      expect(fields).toEqual(expect.arrayContaining(expectedFields));
      const meta = catalog.require(plural);
      const idsOf = (res: { body: Json }) => res.body.data[plural].map((r: { id: string }) => r.id);
      const failures: string[] = [];
      for (const field of fields) {
        const ref = meta.resolve(field.split('.'));
        const middle = await middleIds(table, ref.column);
        expect(middle).toHaveLength(ref.nullable ? 2 : 1);
        for (const direction of DIRECTIONS) {
          const base = `/${plural}?depth=0&limit=60&order_by=${encodeURIComponent(`${field}[${direction}]`)}`;
          const first = await statementsOf(base);
          const pages: Record<string, { statements: { text: string; values: unknown[] }[] }> = { first };
          const next = await statementsOf(
            `${base}&starting_after=${encodeURIComponent(first.body.pageInfo.endCursor)}`,
          );
          pages.next = next;
          // back from the second page: the first page again (the plan of so few rows may be a sort)
          const back = await statementsOf(
            `${base}&ending_before=${encodeURIComponent(next.body.pageInfo.startCursor)}`,
          );
          expect(idsOf(back)).toEqual(idsOf(first));
          for (const [i, id] of middle.entries()) {
            // a cursor on a chosen row: the one-row page of a filter on its id (cursors belong to the sort only)
            const one = await statementsOf(`${base}&filter=${encodeURIComponent(`id[eq]:${id}`)}`);
            const cursor = encodeURIComponent(one.body.pageInfo.startCursor);
            const where = i === 0 ? 'middle' : 'NULLs';
            pages[`after ${where}`] = await statementsOf(`${base}&starting_after=${cursor}`);
            pages[`before ${where}`] = await statementsOf(`${base}&ending_before=${cursor}`);
          }
          for (const [page, { statements }] of Object.entries(pages)) {
            expect(statements).toHaveLength(1);
            const bad = await offendingNodes(table, statements[0]);
            if (bad.length)
              failures.push(
                `${field}[${direction}] ${page}: ${bad.join(', ')} -- ${statements[0].text.replace(/^SELECT .* FROM/, 'SELECT ... FROM')}`,
              );
          }
        }
      }
      expect(failures).toEqual([]);
    },
  );

  it('multi-key sorts that an index covers: (createdAt, id) and (position, id) in both directions', async () => {
    const failures: string[] = [];
    for (const orderBy of [
      'createdAt,id',
      'createdAt[DescNullsLast],id[DescNullsFirst]',
      'position[AscNullsLast],id',
      'position[DescNullsFirst],id[DescNullsLast]',
    ]) {
      const base = `/companies?depth=0&limit=60&order_by=${encodeURIComponent(orderBy)}`;
      const first = await statementsOf(base);
      const next = await statementsOf(`${base}&starting_after=${encodeURIComponent(first.body.pageInfo.endCursor)}`);
      for (const [page, { statements }] of Object.entries({ first, next })) {
        const bad = await offendingNodes('company', statements[0]);
        if (bad.length) failures.push(`${orderBy} ${page} page: ${bad.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
