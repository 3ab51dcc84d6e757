import fc from 'fast-check';
import { Http, Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Differential property (API.md section 14: "a value that a key may not read never reaches it by
 * any route, directly or as an oracle"). Two apps on two databases hold the same records (same
 * ids, timestamps, positions) that differ ONLY in the values of the fields the key's role hides.
 * Random list (filters, sorts, limits, cursors, depth), get one, search, group by and duplicates
 * requests of that key must get byte-identical answers (status and body) from both: no hidden
 * value leaks, not even through ordering, counts, totalCount or cursors.
 */
const SEED = 20261126;
const RUNS = 60;
const STAMP = '2026-01-02T03:04:05.000Z';
const FIRST = ['Ada', 'Alan', 'Grace', 'Linus'];
const LAST = ['Byron', 'Hopper', 'Turing'];
const JOBS = ['CTO', 'Engineer', 'Founder'];
const COMPANY_NAMES = ['Acme', 'Globex', 'Initech', 'Acme'];
const WORDS = ['ada', 'alan', 'gra', 'hopper', 'acme', 'glob', 'cto', 'engineer', 'initech', 'zzz'];

const uuid = (kind: number, i: number) =>
  `00000000-0000-4000-8000-${kind.toString(16).padStart(4, '0')}${i.toString(16).padStart(8, '0')}`;
const COMPANIES = Array.from({ length: 6 }, (_, i) => uuid(1, i));
const PEOPLE = Array.from({ length: 14 }, (_, i) => uuid(2, i));

/** The role: people without city and xLink, companies without employees, address and ARR. */
const PERMISSIONS = [
  { collection: 'people', actions: ['read'], hiddenFields: ['city', 'xLink'] },
  { collection: 'companies', actions: ['read'], hiddenFields: ['employees', 'address', 'annualRecurringRevenue'] },
];

/** Hidden values of one side: `variant` 0 and 1 differ in every record, in order and in nullness. */
function hiddenCompany(i: number, variant: number): Json {
  const n = variant === 0 ? i : COMPANIES.length - i;
  return {
    employees: variant === 1 && i % 3 === 0 ? null : n * 37,
    address: { addressCity: `City${n}`, addressStreet1: `${n} Main St`, addressCountry: variant ? 'France' : 'Peru' },
    annualRecurringRevenue: { amountMicros: n * 1_000_000, currencyCode: variant ? 'EUR' : 'USD' },
  };
}
function hiddenPerson(i: number, variant: number): Json {
  const n = variant === 0 ? i : PEOPLE.length - i;
  return {
    city: variant === 1 && i % 4 === 0 ? '' : `${variant ? 'z' : 'a'}city${n}`,
    xLink: { primaryLinkUrl: `https://x.com/u${n}${variant}`, primaryLinkLabel: `u${n}`, secondaryLinks: [] },
  };
}

async function seed(t: TestApp, variant: number): Promise<void> {
  const companies = COMPANIES.map((id, i) => ({
    id,
    name: COMPANY_NAMES[i % COMPANY_NAMES.length],
    domainName: { primaryLinkUrl: `https://c${i}.example.com` },
    idealCustomerProfile: i % 2 === 0,
    position: i % 3,
    ...hiddenCompany(i, variant),
  }));
  const people = PEOPLE.map((id, i) => ({
    id,
    name: { firstName: FIRST[i % FIRST.length], lastName: LAST[i % LAST.length] },
    emails: { primaryEmail: `p${i}@example.com` },
    jobTitle: JOBS[i % JOBS.length],
    position: i % 5,
    companyId: i % 5 === 4 ? null : COMPANIES[i % COMPANIES.length],
    ...hiddenPerson(i, variant),
  }));
  for (const [path, body] of [
    ['/batch/companies?depth=0', companies],
    ['/batch/people?depth=0', people],
  ] as const) {
    const res = await t.http.post(path, body);
    if (res.status !== 201) throw new Error(`seeding ${path}: ${res.status} ${res.text}`);
  }
  // the same timestamps on both sides, so that only the hidden values differ
  for (const table of ['company', 'person']) {
    await t.db.query(`UPDATE "${table}" SET "createdAt" = $1, "updatedAt" = $1`, [STAMP]);
  }
}

/** A role and key with the same names on both sides (a 403 names the key). */
async function roleKey(t: TestApp): Promise<Http> {
  const role = await t.http.post('/roles?depth=0', { name: 'differential', permissions: PERMISSIONS });
  if (role.status !== 201) throw new Error(`creating the role: ${role.status} ${role.text}`);
  const key = await t.http.post('/apiKeys?depth=0', {
    name: 'differential key',
    expiresAt: new Date(Date.now() + 3600_000).toISOString(),
    roleId: role.body.data.createRole.id,
  });
  if (key.status !== 201) throw new Error(`creating the key: ${key.status} ${key.text}`);
  return new Http(t.baseUrl, key.body.data.createApiKey.token, (m, p, r) => t.validator.check(m, p, r));
}

/** `ok`: a request the key is entitled to (must answer 200, so the comparison is not of two errors). */
type Req = { method: 'GET' | 'POST'; path: string; body?: unknown; follow?: 'list' | 'search'; ok?: boolean };

const q = (s: string) => encodeURIComponent(s);
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

const visibleFilter = fc.oneof(
  pick(JOBS).map((j) => `jobTitle[eq]:"${j}"`),
  fc.subarray(FIRST, { minLength: 1 }).map((xs) => `name.firstName[in]:[${xs.map((x) => `"${x}"`).join(',')}]`),
  pick(COMPANIES).map((c) => `companyId[eq]:${c}`),
  fc.constant('companyId[is]:NULL'),
  fc.integer({ min: 0, max: 4 }).map((n) => `position[gte]:${n}`),
  fc.constant('or(jobTitle[eq]:CTO,name.lastName[ilike]:"%o%")'),
  fc.constant('company.name[eq]:Acme'),
  fc.constant('company.idealCustomerProfile[eq]:true'),
);
const companyFilter = fc.oneof(
  pick(COMPANY_NAMES).map((n) => `name[eq]:${n}`),
  fc.boolean().map((b) => `idealCustomerProfile[eq]:${b}`),
  fc.integer({ min: 0, max: 2 }).map((n) => `position[lte]:${n}`),
  pick(JOBS).map((j) => `people.jobTitle[eq]:${j}`),
);
const personSort = pick([
  'name.firstName[AscNullsFirst]',
  'jobTitle[DescNullsLast],name.lastName',
  'position[DescNullsFirst]',
  'company.name[AscNullsLast]',
  'emails.primaryEmail[DescNullsLast]',
  'createdAt',
]);
const companySort = pick(['name[AscNullsFirst]', 'position[DescNullsLast],name', 'idealCustomerProfile,createdAt']);

const listOf = (plural: string, filter: fc.Arbitrary<string>, sort: fc.Arbitrary<string>) =>
  fc
    .record({
      filter: fc.option(filter, { nil: undefined }),
      sort: fc.option(sort, { nil: undefined }),
      limit: fc.integer({ min: 1, max: 6 }),
      depth: fc.integer({ min: 0, max: 2 }),
      fields: fc.option(pick(['id', 'name', 'position,createdAt']), { nil: undefined }),
    })
    .map(({ filter: f, sort: s, limit, depth, fields }): Req => {
      const params = [`limit=${limit}`, `depth=${depth}`];
      if (f) params.push(`filter=${q(f)}`);
      if (s) params.push(`order_by=${q(s)}`);
      if (fields) params.push(`fields=${fields}`);
      return { method: 'GET', path: `/${plural}?${params.join('&')}`, follow: 'list', ok: true };
    });

const request: fc.Arbitrary<Req> = fc.oneof(
  listOf('people', visibleFilter, personSort),
  listOf('companies', companyFilter, companySort),
  fc
    .record({ id: pick([...PEOPLE, ...COMPANIES]), depth: fc.integer({ min: 0, max: 2 }) })
    .map(({ id, depth }): Req => {
      const plural = PEOPLE.includes(id) ? 'people' : 'companies';
      return { method: 'GET', path: `/${plural}/${id}?depth=${depth}`, ok: true };
    }),
  fc
    .record({
      words: fc.array(pick(WORDS), { minLength: 1, maxLength: 2 }),
      limit: fc.integer({ min: 1, max: 5 }),
      objects: fc.option(pick(['people', 'companies', 'people,companies']), { nil: undefined }),
    })
    .map(({ words, limit, objects }): Req => {
      const extra = objects ? `&objects=${objects}` : '';
      const path = `/search?query=${q(words.join(' '))}&limit=${limit}${extra}`;
      return { method: 'GET', path, follow: 'search', ok: true };
    }),
  fc
    .record({
      people: fc.boolean(),
      filter: fc.option(visibleFilter, { nil: undefined }),
      sample: fc.boolean(),
      dimensions: fc.boolean(),
      aggregate: fc.boolean(),
    })
    .map(({ people, filter, sample, dimensions, aggregate }): Req => {
      const groupBy = people ? '[{"jobTitle":true},{"name":{"firstName":true}}]' : '[{"idealCustomerProfile":true}]';
      const aggregates = people
        ? '["countUniqueValuesJobTitle","maxPosition","countEmptyCompanyId","minCreatedAt"]'
        : '["countTrueIdealCustomerProfile","sumPosition","countUniqueValuesName"]';
      const params = [`include_records_sample=${sample}`];
      if (dimensions) params.push(`group_by=${q(groupBy)}`);
      if (aggregate) params.push(`aggregate=${q(aggregates)}`);
      if (people && filter) params.push(`filter=${q(filter)}`);
      return { method: 'GET', path: `/${people ? 'people' : 'companies'}/groupBy?${params.join('&')}`, ok: true };
    }),
  fc
    .record({ ids: fc.subarray(PEOPLE, { minLength: 1, maxLength: 3 }), depth: fc.integer({ min: 0, max: 1 }) })
    .map(({ ids, depth }): Req => ({
      method: 'POST',
      path: `/people/duplicates?depth=${depth}`,
      body: { ids },
      ok: true,
    })),
  fc.record({ first: pick(FIRST), last: pick(LAST), company: pick(COMPANY_NAMES) }).chain(({ first, last, company }) =>
    pick<Req>([
      {
        method: 'POST',
        path: '/people/duplicates?depth=1',
        body: { data: [{ name: { firstName: first, lastName: last } }] },
        ok: true,
      },
      { method: 'POST', path: '/companies/duplicates?depth=0', body: { data: [{ name: company }] }, ok: true },
    ]),
  ),
  // naming a hidden field is refused the same way on both sides, whatever the values
  pick<Req>([
    { method: 'GET', path: `/people?filter=${q('city[eq]:acity1')}` },
    { method: 'GET', path: '/people?order_by=city' },
    { method: 'GET', path: `/companies?filter=${q('employees[gt]:10')}` },
    { method: 'GET', path: `/people?filter=${q('company.employees[gt]:10')}` },
    { method: 'GET', path: `/companies/groupBy?group_by=${q('[{"employees":true}]')}` },
  ]),
);

async function send(http: Http, req: Req) {
  const res = req.method === 'GET' ? await http.get(req.path) : await http.post(req.path, req.body);
  return res;
}

describe('access differential: hidden values never change what a key receives', () => {
  let a: TestApp;
  let b: TestApp;
  let keyA: Http;
  let keyB: Http;

  beforeAll(async () => {
    // both apps boot and are seeded side by side (a boot runs the migrations)
    [a, b] = await Promise.all([startTestApp(), startTestApp()]);
    await Promise.all([seed(a, 0), seed(b, 1)]);
    [keyA, keyB] = await Promise.all([roleKey(a), roleKey(b)]);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('the two databases really differ in the hidden values, and only there', async () => {
    const one = async (t: TestApp) => (await t.http.get(`/people/${PEOPLE[1]}?depth=0`)).body.data.person;
    const [pa, pb] = [await one(a), await one(b)];
    expect(pa.city).not.toEqual(pb.city);
    expect(pa.xLink).not.toEqual(pb.xLink);
    const strip = ({ city: _c, xLink: _x, ...rest }: Json) => rest;
    expect(strip(pa)).toEqual(strip(pb));
    // and the admin sees the difference as an oracle too: the order by a hidden field differs
    const order = async (t: TestApp) =>
      (await t.http.get('/people?order_by=city&fields=id&limit=200')).body.data.people.map((p: Json) => p.id);
    expect(await order(a)).not.toEqual(await order(b));
  });

  it('random requests of the key get byte-identical answers from both sides', async () => {
    let followed = 0;
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const [ra, rb] = [await send(keyA, req), await send(keyB, req)];
        expect({ req, status: rb.status, body: rb.text }).toEqual({ req, status: ra.status, body: ra.text });
        expect({ req, status: ra.status }).toEqual({ req, status: req.ok ? 200 : 400 });
        statuses[ra.status] = (statuses[ra.status] ?? 0) + 1;
        // follow the next page: the cursors themselves must be identical, and so the next answers
        const cursor = ra.status === 200 && req.follow ? ra.body.pageInfo?.endCursor : undefined;
        if (cursor && ra.body.pageInfo.hasNextPage) {
          followed += 1;
          const next: Req = { method: 'GET', path: `${req.path}&starting_after=${q(cursor)}` };
          const [na, nb] = [await send(keyA, next), await send(keyB, next)];
          expect({ next, status: nb.status, body: nb.text }).toEqual({ next, status: na.status, body: na.text });
          expect(na.status).toBe(200);
        }
      }),
      { seed: SEED, numRuns: RUNS },
    );
    // the runs are mostly real answers with records in them, and some went past the first page
    expect(statuses[200]).toBeGreaterThan(RUNS / 2);
    expect(followed).toBeGreaterThan(5);
  });
});
