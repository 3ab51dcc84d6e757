import fc from 'fast-check';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Property tests of the query language against a model: random filters and sorts over a seeded
 * table, compared with the same predicate and order evaluated in JavaScript (SQL three-valued
 * logic included), and random garbage that must never produce a 5xx.
 */
interface Row {
  id: string;
  name: string;
  employees: number | null;
  icp: boolean;
  city: string | null;
  /** NOT NULL and indexed with id: a sort the compiler writes without a NULLS clause. */
  position: number;
}

type Pred = { field: keyof Omit<Row, 'id'>; path: string; op: string; value: unknown };
type Node = { kind: 'pred'; pred: Pred } | { kind: 'and' | 'or'; children: Node[] } | { kind: 'not'; child: Node };

const SEED = 20261121;
const WORDS = ['a', 'b', 'ab', 'ba', 'abc', 'cab', 'c', 'bb', ''];
const CITIES = ['paris', 'lyon', 'nice'];

const quote = (v: unknown) => `"${String(v).replace(/(["\\])/g, '\\$1')}"`;

function render(node: Node): string {
  if (node.kind === 'pred') {
    const { path, op, value } = node.pred;
    const text = Array.isArray(value) ? `[${value.map(quote).join(',')}]` : op === 'is' ? String(value) : quote(value);
    return `${path}[${op}]:${text}`;
  }
  if (node.kind === 'not') return `not(${render(node.child)})`;
  return `${node.kind}(${node.children.map(render).join(',')})`;
}

const likeToRegex = (pattern: string, flags = '') =>
  new RegExp(
    `^${pattern
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/%/g, '.*')
      .replace(/_/g, '.')}$`,
    flags + 's',
  );

/** SQL semantics: a comparison with NULL is unknown (null). */
function evalPred(row: Row, { field, op, value }: Pred): boolean | null {
  const v = row[field];
  if (op === 'is') return value === 'NULL' ? v === null : v !== null;
  if (op === 'in' && (value as unknown[]).length === 0) return false; // x = ANY('{}') is false, even for NULL
  if (v === null) return null;
  switch (op) {
    case 'eq':
      return v === value;
    case 'neq':
      return v !== value;
    case 'in':
      return (value as unknown[]).includes(v);
    case 'gt':
      return (v as never) > (value as never);
    case 'gte':
      return (v as never) >= (value as never);
    case 'lt':
      return (v as never) < (value as never);
    case 'lte':
      return (v as never) <= (value as never);
    case 'startsWith':
      return String(v).startsWith(String(value));
    case 'endsWith':
      return String(v).endsWith(String(value));
    case 'like':
      return likeToRegex(String(value)).test(String(v));
    case 'ilike':
      return likeToRegex(String(value), 'i').test(String(v));
  }
  throw new Error(op);
}

function evaluate(row: Row, node: Node): boolean | null {
  if (node.kind === 'pred') return evalPred(row, node.pred);
  if (node.kind === 'not') {
    const r = evaluate(row, node.child);
    return r === null ? null : !r;
  }
  const results = node.children.map((c) => evaluate(row, c));
  if (node.kind === 'and') return results.includes(false) ? false : results.includes(null) ? null : true;
  return results.includes(true) ? true : results.includes(null) ? null : false;
}

const word = fc.constantFrom(...WORDS);
const pred: fc.Arbitrary<Pred> = fc.oneof(
  fc.record({
    field: fc.constant('name' as const),
    path: fc.constant('name'),
    op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'startsWith', 'endsWith'),
    value: word,
  }),
  fc.record({
    field: fc.constant('name' as const),
    path: fc.constant('name'),
    op: fc.constantFrom('like', 'ilike'),
    value: fc.constantFrom('%a%', 'a_', '_b%', 'A%', '%C', '%'),
  }),
  fc.record({
    field: fc.constant('name' as const),
    path: fc.constant('name'),
    op: fc.constant('in'),
    value: fc.uniqueArray(word, { maxLength: 3 }),
  }),
  fc.record({
    field: fc.constant('employees' as const),
    path: fc.constant('employees'),
    op: fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte'),
    value: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({
    field: fc.constant('employees' as const),
    path: fc.constant('employees'),
    op: fc.constant('is'),
    value: fc.constantFrom('NULL', 'NOT_NULL'),
  }),
  fc.record({
    field: fc.constant('employees' as const),
    path: fc.constant('employees'),
    op: fc.constant('in'),
    value: fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { maxLength: 3 }),
  }),
  fc.record({
    field: fc.constant('icp' as const),
    path: fc.constant('idealCustomerProfile'),
    op: fc.constantFrom('eq', 'neq'),
    value: fc.boolean(),
  }),
  fc.record({
    field: fc.constant('city' as const),
    path: fc.constant('address.addressCity'),
    op: fc.constantFrom('eq', 'neq'),
    value: fc.constantFrom(...CITIES),
  }),
  fc.record({
    field: fc.constant('city' as const),
    path: fc.constant('address.addressCity'),
    op: fc.constant('is'),
    value: fc.constantFrom('NULL', 'NOT_NULL'),
  }),
);
const { node: filterTree } = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    pred.map((p) => ({ kind: 'pred' as const, pred: p })),
    fc.record({
      kind: fc.constantFrom('and' as const, 'or' as const),
      children: fc.array(tie('node'), { minLength: 1, maxLength: 3 }),
    }),
    tie('node').map((child) => ({ kind: 'not' as const, child })),
  ),
}));

const PATHS = {
  name: 'name',
  employees: 'employees',
  icp: 'idealCustomerProfile',
  city: 'address.addressCity',
  position: 'position',
} as const;
type SortKey = { field: keyof Omit<Row, 'id'>; path: string; desc: boolean; nullsFirst: boolean };
const sortKey: fc.Arbitrary<SortKey> = fc
  .record({
    field: fc.constantFrom('name' as const, 'employees' as const, 'icp' as const, 'city' as const, 'position' as const),
    desc: fc.boolean(),
    nullsFirst: fc.boolean(),
  })
  .map((k) => ({ ...k, path: PATHS[k.field] }));

function compare(a: Row, b: Row, keys: SortKey[]): number {
  for (const k of keys) {
    const x = a[k.field];
    const y = b[k.field];
    if (x === y) continue;
    if (x === null) return k.nullsFirst ? -1 : 1;
    if (y === null) return k.nullsFirst ? 1 : -1;
    const c = x < y ? -1 : 1;
    return k.desc ? -c : c;
  }
  const idDesc = keys.length ? keys[keys.length - 1].desc : false; // id follows the last key's direction
  return (a.id < b.id ? -1 : 1) * (idDesc ? -1 : 1);
}

describe('query language properties (fast-check, fixed seed)', () => {
  let t: TestApp;
  let rows: Row[];
  beforeAll(async () => {
    t = await startTestApp();
    const seedRows = fc.sample(
      fc.record({
        name: word,
        employees: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null, freq: 4 }),
        icp: fc.boolean(),
        city: fc.option(fc.constantFrom(...CITIES), { nil: null, freq: 4 }),
        position: fc.integer({ min: 0, max: 6 }),
      }),
      { numRuns: 90, seed: SEED },
    );
    const body = seedRows.map((r) => ({
      name: r.name,
      employees: r.employees,
      idealCustomerProfile: r.icp,
      address: r.city === null ? null : { addressCity: r.city },
      position: r.position,
    }));
    const created = (await t.http.post('/batch/companies?depth=0', body)).body.data.createCompanies;
    rows = created.map((c: { id: string }, i: number) => ({ id: c.id, ...seedRows[i] }));
  });
  afterAll(async () => t?.close());

  it('every random filter selects exactly the rows the model selects, with an exact totalCount', async () => {
    await fc.assert(
      fc.asyncProperty(filterTree, async (tree) => {
        const filter = render(tree);
        const res = await t.http.get(`/companies?depth=0&limit=200&filter=${encodeURIComponent(filter)}`);
        expect({ filter, status: res.status }).toEqual({ filter, status: 200 });
        const expected = rows
          .filter((r) => evaluate(r, tree) === true)
          .map((r) => r.id)
          .sort();
        expect(res.body.totalCount).toBe(expected.length);
        expect(res.body.data.companies.map((c: { id: string }) => c.id).sort()).toEqual(expected);
      }),
      { seed: SEED, numRuns: 120 },
    );
  });

  /** Walks every page of a sort forward then backward; both walks must give the model order. */
  async function walkMatchesModel(keys: SortKey[], pageSize: number): Promise<void> {
    const orderBy = keys
      .map((k) => `${k.path}[${k.desc ? 'Desc' : 'Asc'}Nulls${k.nullsFirst ? 'First' : 'Last'}]`)
      .join(',');
    const expected = [...rows].sort((a, b) => compare(a, b, keys)).map((r) => r.id);
    const base = new URLSearchParams({ depth: '0', limit: String(pageSize) });
    if (orderBy) base.set('order_by', orderBy);
    const page = async (extra: Record<string, string>) => {
      const res = await t.http.get(`/companies?${base}&${new URLSearchParams(extra)}`);
      expect(res.status).toBe(200);
      return { ids: res.body.data.companies.map((c: { id: string }) => c.id) as string[], info: res.body.pageInfo };
    };
    // forward to the end
    const seen: string[] = [];
    let current = await page({});
    seen.push(...current.ids);
    for (let guard = 0; current.info.hasNextPage && guard < 100; guard++) {
      current = await page({ starting_after: current.info.endCursor });
      seen.push(...current.ids);
    }
    expect(seen).toEqual(expected);
    // and back to the start, each page in normal order
    const back: string[] = [...current.ids];
    for (let guard = 0; guard < 100; guard++) {
      const previous = await page({ ending_before: current.info.startCursor });
      back.unshift(...previous.ids);
      current = previous;
      if (!previous.info.hasPreviousPage) break;
    }
    expect(back).toEqual(expected);
  }

  it('walking all pages of a random sort returns every row once, in the model order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(sortKey, { minLength: 0, maxLength: 3, selector: (k) => k.field }),
        fc.integer({ min: 7, max: 40 }),
        walkMatchesModel,
      ),
      { seed: SEED, numRuns: 25 },
    );
  });

  it('every order_by direction of every field (nullable or NOT NULL) walks in the model order', async () => {
    for (const field of Object.keys(PATHS) as (keyof typeof PATHS)[]) {
      for (const desc of [false, true]) {
        for (const nullsFirst of [false, true]) {
          await walkMatchesModel([{ field, path: PATHS[field], desc, nullsFirst }], 11);
        }
      }
    }
  });

  it('garbage in filter, order_by, limit, depth, fields and cursors never causes a 5xx', async () => {
    const garbage = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(
        'and(',
        'or()',
        'not(a[eq]:1,b[eq]:2)',
        'name[eq]:"\\',
        '[[[',
        ')))',
        'name[in]:[',
        '%00',
        '\u0000',
        'name[eq]:\u0000',
      ),
      fc
        .array(
          fc.constantFrom('and(', 'name', '[eq]', ':', '"x"', ',', ')', '[', ']', 'employees', '[gt]', '1e999', 'NULL'),
          { maxLength: 12 },
        )
        .map((p) => p.join('')),
    );
    const param = fc.constantFrom('filter', 'order_by', 'limit', 'depth', 'fields', 'starting_after', 'ending_before');
    await fc.assert(
      fc.asyncProperty(param, garbage, async (name, value) => {
        const res = await t.http.get(`/companies?${name}=${encodeURIComponent(value)}`);
        expect({ name, value, status: res.status < 500 }).toEqual({ name, value, status: true });
        if (res.status !== 200) {
          expect(res.body).toEqual({ statusCode: 400, error: 'BadRequestException', messages: [expect.any(String)] });
        }
      }),
      { seed: SEED, numRuns: 300 },
    );
  });
});
