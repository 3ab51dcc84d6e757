import { recordStatements } from '../support/statements';
import { startTestApp, TestApp } from '../support/test-app';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
type Hit = { objectNameSingular: string; recordId: string; label: string; tsRank: number; record: { id: string } };

/** GET /search (API.md section 12): prefixes of every word, accents and case ignored, ranked, keyset-paginated. */
describe('search across collections', () => {
  let t: TestApp;
  let stmts: ReturnType<typeof recordStatements>;
  const ids: Record<string, string> = {};
  const search = (query: string, extra = '') => t.http.get(`/search?query=${encodeURIComponent(query)}${extra}`);
  const labels = (hits: Hit[]) => hits.map((h) => `${h.objectNameSingular}:${h.label}`);

  beforeAll(async () => {
    // no webhook dispatcher: its polls would be counted among the statements of a search
    t = await startTestApp({ WEBHOOK_DISPATCH: 'false' });
    stmts = recordStatements(t.db);
    const people = (
      await t.http.post('/batch/people?depth=0', [
        { name: { firstName: 'Ada', lastName: 'Lovelace' }, jobTitle: 'Countess' },
        { name: { firstName: 'Adam', lastName: 'Smith' } },
        { name: { firstName: 'Zoë', lastName: 'Ådams' }, emails: { primaryEmail: 'zoe@acme.test' } },
        { name: { firstName: 'Deleted', lastName: 'Lovelace' } },
      ])
    ).body.data.createPeople;
    ['ada', 'adam', 'zoe', 'deleted'].forEach((k, i) => (ids[k] = people[i].id));
    ids.company = (await t.http.post('/companies?depth=0', { name: 'Lovelace Labs' })).body.data.createCompany.id;
    await t.http.delete(`/people/${ids.deleted}?soft_delete=true`);
  });
  afterAll(async () => t?.close());

  it('every word as a prefix: "ada lov" finds Ada Lovelace only', async () => {
    const res = await search('ada lov');
    expect(res.status).toBe(200);
    expect(labels(res.body.data.search)).toEqual(['person:Ada Lovelace']);
    expect(res.body.data.search[0].record.id).toBe(ids.ada);
  });

  it('a whole word ranks before a prefix; soft-deleted records never appear', async () => {
    const hits: Hit[] = (await search('ada')).body.data.search;
    // Ada is the whole word; Adam and Ådams only start with it
    expect(labels(hits)[0]).toBe('person:Ada Lovelace');
    expect(labels(hits).slice(1).sort()).toEqual(['person:Adam Smith', 'person:Zoë Ådams']);
    expect(hits[0].tsRank).toBeGreaterThan(hits[1].tsRank);
    const lovelace = labels((await search('lovelace')).body.data.search);
    expect(lovelace.sort()).toEqual(['company:Lovelace Labs', 'person:Ada Lovelace']);
  });

  it('accents and case are ignored both ways', async () => {
    for (const query of ['zoe', 'ZOË', 'adams', 'ÅDAMS zo', 'zoe@acme']) {
      expect({ query, found: labels((await search(query)).body.data.search) }).toEqual({
        query,
        found: ['person:Zoë Ådams'],
      });
    }
  });

  it('objects narrows the collections; pages follow the cursor', async () => {
    expect(labels((await search('lovelace', '&objects=companies')).body.data.search)).toEqual([
      'company:Lovelace Labs',
    ]);
    const all: Hit[] = (await search('a')).body.data.search;
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await search('a', `&limit=1${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`);
      paged.push(...res.body.data.search.map((h: Hit) => h.recordId));
      cursor = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : null;
    } while (cursor);
    expect(paged).toEqual(all.map((h) => h.recordId));
    expect(paged.length).toBeGreaterThanOrEqual(3);
  });

  it('imageUrl is the avatar where the collection has one, else null', async () => {
    const avatarUrl = 'https://img.example.com/imogen.png';
    const person = (
      await t.http.post('/people?depth=0', { name: { firstName: 'Imogen', lastName: 'Cunningham' }, avatarUrl })
    ).body.data.createPerson;
    const company = (await t.http.post('/companies?depth=0', { name: 'Imogen Works' })).body.data.createCompany;
    const hits: Hit[] = (await search('imogen')).body.data.search;
    const imageOf = (id: string) => (hits.find((h) => h.recordId === id) as Hit & { imageUrl: unknown }).imageUrl;
    expect(hits.map((h) => h.recordId).sort()).toEqual([person.id, company.id].sort());
    expect(imageOf(person.id)).toBe(avatarUrl);
    expect(imageOf(company.id)).toBeNull();
  });

  it('bad input: 400', async () => {
    for (const [path, message] of [
      ['/search', /query is required/],
      ['/search?query=%20%20', /query is required/],
      ['/search?query=a&objects=apiKeys', /not a searchable collection/],
      ['/search?query=a&limit=101', /limit '101' is invalid/],
      ['/search?query=a&starting_after=nope', /cursor/i],
    ] as const) {
      const res = await t.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 400 });
      expect(res.body.messages[0]).toMatch(message);
    }
  });

  it('one statement, served by the GIN indexes (no sequential scan) at 20,000 people', async () => {
    // on PostgreSQL and on PGlite alike (the same planner); in steps, as PGlite holds the event
    // loop while it works (one long step outlasts the server's keep-alive: a reset connection)
    for (let from = 1; from <= 20_000; from += 5_000)
      await t.db.query(
        `INSERT INTO person ("nameFirstName", "nameLastName", "emailsPrimaryEmail") SELECT 'first' || g, 'last' || g, 'p' || g || '@bulk.test' FROM generate_series($1::int, $1::int + 4999) g`,
        [from],
      );
    // VACUUM also empties the GIN pending list that fast updates leave behind (as autovacuum does)
    await t.db.query('VACUUM ANALYZE person');
    const { statements } = await stmts.during(() => search('ada lov'));
    expect(statements).toHaveLength(1);
    const singulars = statements[0].match(/\$\d+::text AS "objectNameSingular"/g) ?? [];
    const tables = [
      'company',
      'note',
      'opportunity',
      'person',
      'task',
      'workflow',
      'workflowRun',
      'workflowVersion',
      'workspaceMember',
    ];
    expect(singulars).toHaveLength(tables.length);
    const [plan] = await t.db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`EXPLAIN (FORMAT JSON) ${statements[0]}`, [
      "'ada':* & 'lov':*",
      "'ada' | 'lov'",
      ...tables,
    ]);
    const scans: PlanNode[] = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name']) scans.push(node);
      node.Plans?.forEach(walk);
    };
    walk(plan['QUERY PLAN'][0].Plan);
    const person = scans.filter((s) => s['Relation Name'] === 'person');
    expect(person.map((s) => s['Node Type'])).toEqual(['Bitmap Heap Scan']);
    expect(scans.every((s) => s['Node Type'] !== 'Seq Scan' || s['Relation Name'] !== 'person')).toBe(true);
  });
});
