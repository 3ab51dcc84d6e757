import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { ColumnRef } from '../../src/core/model/column-ref';
import { ALL_COLLECTIONS, catalog } from '../support/fixtures';
import { answerViolations } from '../support/fuzz-checks';
import { HttpResponse } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Fuzzing the parameters of contract 0.2 (API.md sections 11 and 12): group by, relation paths in
 * filter and order_by, search, update / delete / restore many, upsert and merge (fast-check, fixed
 * seed). Requests mix well-formed parts (real relation paths, fields, aggregate keys, operators)
 * with random ones, so they reach past the parsers. Never a 5xx, always the error envelope on
 * errors, no SQL / stack / path text in any body, and a request answered 4xx writes nothing (no
 * row added or removed in any table, no event recorded).
 */
const SEED = 20261125;
const RUNS = 900;
const PLURALS = ALL_COLLECTIONS.map((m) => m.plural);
const SEARCHABLE = ALL_COLLECTIONS.filter((m) => m.searchable).map((m) => m.plural);
// API.md section 4, by hand: a list taken from src would follow an operator dropped or renamed there
const OPERATORS = [
  'eq',
  'neq',
  'in',
  'containsAny',
  'is',
  'gt',
  'gte',
  'lt',
  'lte',
  'startsWith',
  'endsWith',
  'like',
  'ilike',
];
const SORTS = ['AscNullsFirst', 'AscNullsLast', 'DescNullsFirst', 'DescNullsLast'];
const GRANULARITIES = [
  'DAY',
  'WEEK',
  'MONTH',
  'QUARTER',
  'YEAR',
  'DAY_OF_THE_WEEK',
  'MONTH_OF_THE_YEAR',
  'QUARTER_OF_THE_YEAR',
];
const AGGREGATES = [
  'countEmpty',
  'countNotEmpty',
  'countUniqueValues',
  'percentageEmpty',
  'percentageNotEmpty',
  'countTrue',
  'countFalse',
  'min',
  'max',
  'avg',
  'sum',
];

/** Every (collection, path) a filter or sort may name: own columns, one hop and two hops through relations. */
const PATHS: [string, string, ColumnRef][] = ALL_COLLECTIONS.flatMap((meta) => {
  const own = meta.columnRefs().map((ref): [string, string, ColumnRef] => [meta.plural, ref.path, ref]);
  const through = [...meta.manyToOne, ...meta.oneToMany].flatMap((rel) => {
    const target = catalog.require(rel.target);
    const oneHop = target
      .columnRefs()
      .slice(0, 8)
      .map((ref): [string, string, ColumnRef] => [meta.plural, `${rel.name}.${ref.path}`, ref]);
    const twoHops = target.manyToOne.map((next): [string, string, ColumnRef] => [
      meta.plural,
      `${rel.name}.${next.name}.id`,
      catalog.require(next.target).resolve(['id']),
    ]);
    return [...oneHop, ...twoHops];
  });
  return [...own, ...through];
});
const FIELDS: [string, string][] = ALL_COLLECTIONS.flatMap((meta) =>
  meta.fields.map((f): [string, string] => [meta.plural, f.name]),
);

const weird = fc.oneof(
  fc.constantFrom(
    '',
    'NULL',
    'NOT_NULL',
    '\u0000',
    '%00',
    '"x"',
    '[a,b]',
    '[]',
    '1e309',
    '-0',
    'NaN',
    "'; DROP TABLE person; --",
    '2026-11-25',
    'true',
  ),
  fc.string({ maxLength: 20 }),
  fc.integer().map(String),
);
const value = fc.oneof(weird, fc.uuid().map(String), fc.constant(randomUUID().toUpperCase()));
/** Mostly `good`, sometimes a random string. */
const orWeird = (good: fc.Arbitrary<string>) =>
  fc.oneof({ weight: 8, arbitrary: good }, { weight: 1, arbitrary: weird });
/** One of `names` mostly, a random string sometimes (only random strings when `names` is empty). */
const mostlyOf = (names: string[], weight: number) =>
  names.length ? fc.oneof({ weight, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: weird }) : weird;
const pathOf = (plural: string) =>
  mostlyOf(
    PATHS.filter(([p]) => p === plural).map(([, path]) => path),
    12,
  );
/** A value of the type at the end of a path, as a filter writes it. */
const typedValue = (ref: ColumnRef): fc.Arbitrary<string> => {
  if (ref.options?.length) return fc.constantFrom(...ref.options);
  switch (ref.type) {
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION':
    case 'RATING':
      return fc.integer({ min: -1000, max: 100_000 }).map(String);
    case 'BOOLEAN':
      return fc.constantFrom('true', 'false');
    case 'UUID':
      return fc.uuid().map(String);
    case 'DATE_TIME':
    case 'DATE':
      return fc.constantFrom('2026-11-25', '2026-11-25T10:00:00Z', '1970-01-01');
    default:
      return fc.oneof(fc.constantFrom('Ada', '%a%', 'CTO', '"x,y"'), fc.string({ maxLength: 6 }));
  }
};
const leaf = (plural: string): fc.Arbitrary<string> => {
  const paths = PATHS.filter(([p]) => p === plural);
  const typed = paths.length
    ? fc
        .tuple(fc.constantFrom(...paths), mostlyOf(OPERATORS, 6))
        .chain(([[, path, ref], op]) =>
          fc
            .oneof({ weight: 6, arbitrary: typedValue(ref) }, { weight: 1, arbitrary: value })
            .map((v) => `${path}[${op}]:${op === 'in' || op === 'containsAny' ? `[${v}]` : v}`),
        )
    : weird;
  return fc.oneof(
    { weight: 8, arbitrary: typed },
    { weight: 1, arbitrary: fc.tuple(weird, weird, value).map(([p, op, v]) => `${p}[${op}]:${v}`) },
  );
};
const filterOf = (plural: string): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 4, arbitrary: leaf(plural) },
    { weight: 1, arbitrary: leaf(plural).map((l) => `not(${l})`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(leaf(plural), leaf(plural), fc.constantFrom('and', 'or'))
        .map(([a, b, k]) => `${k}(${a},${b})`),
    },
    { weight: 1, arbitrary: fc.tuple(leaf(plural), leaf(plural)).map(([a, b]) => `${a},${b}`) },
    { weight: 1, arbitrary: fc.oneof(weird, fc.constant('id[is]:NOT_NULL')) },
  );
const orderByOf = (plural: string) =>
  fc.tuple(pathOf(plural), orWeird(fc.constantFrom(...SORTS))).map(([p, s]) => `${p}[${s}]`);

const fieldOf = (plural: string) =>
  mostlyOf(
    FIELDS.filter(([p]) => p === plural).map(([, f]) => f),
    12,
  );
const capitalized = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);
/** Own columns of a collection: `[path, type]`, for group by dimensions and aggregate keys that fit. */
const ownColumns = (plural: string) =>
  catalog
    .require(plural)
    .columnRefs()
    .map((ref) => [ref.path, ref.type] as const);
const isDate = (type: string) => type === 'DATE_TIME' || type === 'DATE';
const isNumber = (type: string) => ['NUMBER', 'NUMERIC', 'POSITION', 'RATING'].includes(type);
type Dimension = Record<string, true | Record<string, unknown>>;
const dimension = (plural: string): fc.Arbitrary<Dimension> => {
  const columns = ownColumns(plural);
  if (!columns.length) return fieldOf(plural).map((f): Dimension => ({ [f]: true }));
  return fc.constantFrom(...columns).chain(([path, type]): fc.Arbitrary<Dimension> => {
    const [field, sub] = path.split('.');
    if (isDate(type)) return orWeird(fc.constantFrom(...GRANULARITIES)).map((g) => ({ [field]: { granularity: g } }));
    return fc.constant(sub ? { [field]: { [sub]: true } } : { [field]: true });
  });
};
/** Aggregate keys mostly fitting the column's type (`sumAmountAmountMicros`, `minCreatedAt`), sometimes not. */
const aggregateKey = (plural: string) => {
  const columns = ownColumns(plural);
  if (!columns.length) return fc.constantFrom(...AGGREGATES);
  return fc.tuple(fc.constantFrom(...columns), fc.nat(9)).map(([[path, type], n]) => {
    const fits = ['countEmpty', 'countNotEmpty', 'countUniqueValues', 'percentageEmpty', 'percentageNotEmpty'];
    if (isNumber(type) || path.endsWith('amountMicros')) fits.push('sum', 'avg', 'min', 'max');
    if (isDate(type)) fits.push('min', 'max');
    if (type === 'BOOLEAN') fits.push('countTrue', 'countFalse');
    const name = n === 0 ? AGGREGATES[path.length % AGGREGATES.length] : fits[n % fits.length];
    return `${name}${path.split('.').map(capitalized).join('')}`;
  });
};
const groupByQuery = (plural: string) =>
  fc.record(
    {
      group_by: orWeird(
        fc
          .array(fc.oneof({ weight: 12, arbitrary: dimension(plural) }, { weight: 1, arbitrary: fc.jsonValue() }), {
            maxLength: 3,
          })
          .map((d) => JSON.stringify(d)),
      ),
      aggregate: orWeird(fc.array(aggregateKey(plural), { maxLength: 3 }).map((keys) => JSON.stringify(keys))),
      filter: filterOf(plural),
      order_by: orWeird(
        fc.oneof(
          fc.constantFrom('[{"totalCount":"DESC"}]', '[{"totalCount":"ASC"}]'),
          fc.tuple(fieldOf(plural), fc.constantFrom(...SORTS)).map(([f, s]) => JSON.stringify([{ [f]: s }])),
        ),
      ),
      limit: orWeird(fc.constantFrom('0', '1', '50', '200', '201')),
      timezone: orWeird(fc.constantFrom('UTC', 'Europe/Paris', 'America/New_York', 'Mars/Olympus')),
      include_records_sample: orWeird(fc.constantFrom('true', 'false')),
    },
    { requiredKeys: [] },
  );

const record = fc.dictionary(
  fc.oneof(fc.constantFrom(...new Set(FIELDS.map(([, f]) => f))), fc.constantFrom('id', 'deletedAt', '__proto__', 'x')),
  fc.oneof(value, fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
  { maxKeys: 5 },
);
/** An upsert item: random fields, no field (a create with defaults), or an existing id (a patch). */
const upsertItem = fc.oneof(
  { weight: 3, arbitrary: record },
  { weight: 1, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.constant({ id: '__existing0__' }) },
);
const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();

type Request = { method: string; path: string; body?: unknown };
const plural = fc.constantFrom(...PLURALS);
const request: fc.Arbitrary<Request> = fc.oneof(
  // lists through relation paths
  plural.chain((c) =>
    fc
      .record({
        filter: filterOf(c),
        order_by: fc.option(orderByOf(c), { nil: undefined }),
        limit: fc.option(fc.constantFrom('1', '5', '60'), { nil: undefined }),
      })
      .map((q) => ({ method: 'GET', path: `/${c}?${query(q)}` })),
  ),
  // group by
  plural.chain((c) => groupByQuery(c).map((q) => ({ method: 'GET', path: `/${c}/groupBy?${query(q)}` }))),
  // search
  fc
    .record(
      {
        query: orWeird(fc.constantFrom('ada', 'ada lov', 'Écolé', 'a b c d e', '&|!():*', 'lovelace ada')),
        objects: orWeird(fc.subarray(SEARCHABLE, { minLength: 1, maxLength: 3 }).map((o) => o.join(','))),
        limit: orWeird(fc.constantFrom('1', '20', '100', '101')),
        starting_after: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: weird }),
      },
      { requiredKeys: ['query', 'starting_after'] },
    )
    .map((q) => ({ method: 'GET', path: `/search?${query(q)}` })),
  // update, delete and restore many
  plural.chain((c) =>
    fc
      .tuple(filterOf(c), record)
      .map(([f, body]) => ({ method: 'PATCH', path: `/${c}?${query({ filter: f })}`, body })),
  ),
  plural.chain((c) =>
    fc
      .tuple(filterOf(c), orWeird(fc.constantFrom('true', 'false')))
      .map(([f, soft]) => ({ method: 'DELETE', path: `/${c}?${query({ filter: f, soft_delete: soft })}` })),
  ),
  plural.chain((c) => filterOf(c).map((f) => ({ method: 'PATCH', path: `/${c}/restore?${query({ filter: f })}` }))),
  // upsert one and many
  plural.chain((c) => upsertItem.map((body) => ({ method: 'POST', path: `/${c}?upsert=true`, body }))),
  plural.chain((c) =>
    fc.array(upsertItem, { maxLength: 4 }).map((body) => ({ method: 'POST', path: `/batch/${c}?upsert=true`, body })),
  ),
  // merge
  plural.chain((c) =>
    fc
      .record(
        {
          ids: fc.oneof(
            { weight: 3, arbitrary: fc.constant(['__existing0__', '__existing1__']) },
            {
              weight: 3,
              arbitrary: fc.array(fc.oneof(fc.constantFrom('__existing0__', '__existing1__'), value), {
                maxLength: 10,
              }),
            },
            { weight: 1, arbitrary: fc.jsonValue() },
          ),
          conflictPriorityIndex: fc.oneof(
            { weight: 4, arbitrary: fc.integer({ min: 0, max: 1 }) },
            { weight: 1, arbitrary: fc.integer({ min: -1, max: 10 }) },
            { weight: 1, arbitrary: fc.jsonValue() },
          ),
          dryRun: fc.oneof({ weight: 4, arbitrary: fc.boolean() }, { weight: 1, arbitrary: fc.jsonValue() }),
        },
        { requiredKeys: ['ids'] },
      )
      .map((body) => ({ method: 'PATCH', path: `/${c}/merge`, body })),
  ),
);

describe('fuzz: contract 0.2 parameters (group by, relation paths, search, bulk writes, upsert, merge)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  /** Rows of every table, in one statement: a 4xx must leave it unchanged. */
  async function footprint(): Promise<string> {
    const tables = [...new Set(ALL_COLLECTIONS.map((m) => m.table))];
    const [row] = await t.db.query(
      `SELECT ${tables.map((table, i) => `(SELECT count(*) FROM "${table}") AS c${i}`).join(', ')}`,
    );
    return JSON.stringify(row);
  }

  it(`${RUNS} requests: no 5xx, always the envelope, nothing leaked, nothing written by a 4xx`, async () => {
    const companies = (
      await t.http.post('/batch/companies?depth=0', [
        { name: 'Fuzz A', employees: 10 },
        { name: 'Fuzz B', employees: 2000 },
      ])
    ).body.data.createCompanies;
    await t.http.post('/batch/people?depth=0', [
      { name: { firstName: 'Ada', lastName: 'Lovelace' }, companyId: companies[0].id, jobTitle: 'CTO' },
      { name: { firstName: 'Élodie', lastName: 'Écolé' }, companyId: companies[1].id },
    ]);
    const violations: string[] = [];
    const statuses = new Map<number, number>();
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        // placeholders of live ids of the request's collection (two, for merges)
        const table = catalog.get(req.path.split(/[/?]/)[req.path.startsWith('/batch/') ? 2 : 1])?.table;
        const live = table
          ? await t.db.query<{ id: string }>(
              `SELECT "id" FROM "${table}" WHERE "deletedAt" IS NULL ORDER BY "id" LIMIT 2`,
            )
          : [];
        const ids = [live[0]?.id ?? randomUUID(), live[1]?.id ?? randomUUID()];
        const body =
          req.body === undefined
            ? undefined
            : JSON.parse(JSON.stringify(req.body).replace(/__existing(\d)__/g, (_, i: string) => ids[Number(i)]));
        const before = await footprint();
        let res: HttpResponse;
        try {
          res = await t.http.request(req.method, req.path, body === undefined ? {} : { body });
        } catch (error) {
          // an undocumented status or an OpenAPI mismatch is a violation too
          violations.push(`${req.method} ${req.path}: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
          return;
        }
        sent += 1;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        violations.push(...answerViolations(`${req.method} ${req.path} ${JSON.stringify(body) ?? ''}`, res));
        if (res.status >= 400 && (await footprint()) !== before)
          violations.push(`${req.method} ${req.path} ${JSON.stringify(body)} -> ${res.status} but rows changed`);
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(violations).toEqual([]);
    expect(sent).toBe(RUNS);
    // the generators reach past the parsers: a good share of the requests succeed
    const succeeded = [...statuses].filter(([s]) => s < 300).reduce((n, [, k]) => n + k, 0);
    expect(succeeded).toBeGreaterThan(RUNS / 10);
  });
});
