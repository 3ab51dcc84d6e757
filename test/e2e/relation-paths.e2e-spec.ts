import { recordStatements } from '../support/statements';
import { startTestApp, TestApp } from '../support/test-app';

type Person = { id: string; companyId: string | null; jobTitle: string; name: { firstName: string; lastName: string } };
type Company = { id: string; name: string; employees: number | null; accountOwnerId: string | null };

/** Relation paths in filter and order_by (API.md section 12), checked against a naive join of the seeded rows. */
describe('relation paths', () => {
  let t: TestApp;
  let stmts: ReturnType<typeof recordStatements>;
  const companies: Company[] = [];
  const people: Person[] = [];
  const tag = `rp${Date.now()}`;
  const f = (filter: string) => encodeURIComponent(filter);

  beforeAll(async () => {
    t = await startTestApp();
    stmts = recordStatements(t.db);
    const owners = (
      await t.http.post('/batch/workspaceMembers?depth=0', [
        { name: { firstName: 'Alan', lastName: 'Kay' }, userId: '00000000-0000-4000-8000-000000000001' },
        { name: { firstName: 'Barbara', lastName: 'Liskov' }, userId: '00000000-0000-4000-8000-000000000002' },
      ])
    ).body.data.createWorkspaceMembers;
    const companyBody = Array.from({ length: 12 }, (_, i) => ({
      name: `${tag} company ${String.fromCharCode(75 - i)}`,
      employees: i % 4 === 0 ? null : i * 30,
      accountOwnerId: i % 3 === 0 ? null : owners[i % 2].id,
    }));
    companies.push(...(await t.http.post('/batch/companies?depth=0', companyBody)).body.data.createCompanies);
    const peopleBody = Array.from({ length: 40 }, (_, i) => ({
      name: { firstName: `P${i}`, lastName: tag },
      jobTitle: i % 7 === 0 ? 'CTO' : 'Engineer',
      companyId: i % 9 === 0 ? null : companies[i % companies.length].id,
    }));
    people.push(...(await t.http.post('/batch/people?depth=0', peopleBody)).body.data.createPeople);
    // a soft-deleted company and person never match through a relation
    await t.http.delete(`/companies/${companies[5].id}?soft_delete=true`);
    await t.http.delete(`/people/${people[7].id}?soft_delete=true`);
  });
  afterAll(async () => t?.close());

  const live = (c: Company | undefined) => c && c.id !== companies[5].id;
  const companyOf = (p: Person) =>
    live(companies.find((c) => c.id === p.companyId)) ? companies.find((c) => c.id === p.companyId) : undefined;
  const livePeople = () => people.filter((p) => p.id !== people[7].id);
  const sortIds = (ids: string[]) => [...ids].sort();

  async function listAll(collection: string, filter: string, orderBy?: string): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const res = await t.http.get(
        `/${collection}?filter=${f(filter)}&depth=0&limit=7${orderBy ? `&order_by=${f(orderBy)}` : ''}${cursor ? `&starting_after=${f(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      ids.push(...res.body.data[collection].map((r: { id: string }) => r.id));
      cursor = res.body.pageInfo.hasNextPage ? res.body.pageInfo.endCursor : undefined;
    } while (cursor);
    return ids;
  }

  it('many-to-one: company.employees[gt]:N, with an exact totalCount', async () => {
    const expected = livePeople()
      .filter((p) => (companyOf(p)?.employees ?? -1) > 100)
      .map((p) => p.id);
    const filter = `name.lastName[eq]:${tag},company.employees[gt]:100`;
    expect(sortIds(await listAll('people', filter))).toEqual(sortIds(expected));
    const res = await t.http.get(`/people?filter=${f(filter)}&limit=1`);
    expect(res.body.totalCount).toBe(expected.length);
  });

  it('two hops: company.accountOwner.name.lastName', async () => {
    const kay = (await t.http.get(`/workspaceMembers?filter=${f('name.lastName[eq]:Kay')}`)).body.data
      .workspaceMembers[0].id;
    const byKay = livePeople()
      .filter((p) => companyOf(p)?.accountOwnerId === kay)
      .map((p) => p.id);
    // the filter must tell people apart: some match, some do not
    expect(byKay.length).toBeGreaterThan(0);
    expect(byKay.length).toBeLessThan(livePeople().length);
    expect(
      sortIds(await listAll('people', `name.lastName[eq]:${tag},company.accountOwner.name.lastName[eq]:"Kay"`)),
    ).toEqual(sortIds(byKay));
  });

  it('one-to-many: at least one related record matches; not(...) means none', async () => {
    const mine = companies.filter((c) => c.id !== companies[5].id);
    const withCto = mine
      .filter((c) => livePeople().some((p) => p.companyId === c.id && p.jobTitle === 'CTO'))
      .map((c) => c.id);
    const filter = `name[startsWith]:"${tag}",people.jobTitle[ilike]:"%cto%"`;
    expect(sortIds(await listAll('companies', filter))).toEqual(sortIds(withCto));
    const none = `name[startsWith]:"${tag}",not(people.jobTitle[eq]:CTO)`;
    expect(sortIds(await listAll('companies', none))).toEqual(
      sortIds(mine.map((c) => c.id).filter((id) => !withCto.includes(id))),
    );
  });

  it('order_by through a relation: records without it sort as nulls; cursors stay exact across pages', async () => {
    const key = (p: Person) => companyOf(p)?.name ?? null;
    for (const [direction, nullsFirst, desc] of [
      ['AscNullsLast', false, false],
      ['DescNullsFirst', true, true],
    ] as const) {
      const expected = [...livePeople()]
        .sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          if (x === y) return desc ? (a.id < b.id ? 1 : -1) : a.id < b.id ? -1 : 1;
          if (x === null) return nullsFirst ? -1 : 1;
          if (y === null) return nullsFirst ? 1 : -1;
          return (x < y ? -1 : 1) * (desc ? -1 : 1);
        })
        .map((p) => p.id);
      expect(await listAll('people', `name.lastName[eq]:${tag}`, `company.name[${direction}]`)).toEqual(expected);
    }
  });

  it('bad paths: 400 naming the path; types checked at the end of the path', async () => {
    const cases: [string, RegExp][] = [
      ['filter=compnay.employees[gt]:1', /compnay\.employees/],
      ['filter=company.employeez[gt]:1', /company\.employeez/],
      ['filter=company.employees[eq]:many', /Invalid filter value 'many' for field 'company.employees'/],
      ['filter=company.accountOwner.accountOwnerForCompanies.name[eq]:x', /more than 2 relations/],
      ['order_by=people.jobTitle', /many-to-one relations only/],
    ];
    for (const [query, message] of cases) {
      const res = await t.http.get(
        `/${query.startsWith('order_by=people') ? 'companies' : 'people'}?${query.replace(/=(.*)$/, (_, v) => `=${f(v)}`)}`,
      );
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.messages[0]).toMatch(message);
    }
  });

  it('a fixed number of statements whatever the data size: one page query and one count', async () => {
    // a two-hop many-to-one path, a one-to-many path and a sort through a relation, in one request
    const kay = (await t.http.get(`/workspaceMembers?filter=${f('name.lastName[eq]:Kay')}`)).body.data
      .workspaceMembers[0].id;
    const expected = companies
      .filter((c) => live(c) && c.accountOwnerId === kay)
      .filter((c) => livePeople().some((p) => p.companyId === c.id && p.jobTitle === 'CTO'))
      .map((c) => c.id);
    expect(expected.length).toBeGreaterThan(0);
    const filter = f(`name[startsWith]:"${tag}",accountOwner.name.lastName[eq]:Kay,people.jobTitle[eq]:CTO`);
    const { result, statements } = await stmts.during(() =>
      t.http.get(`/companies?filter=${filter}&order_by=${f('accountOwner.name.firstName')}&depth=0&limit=50`),
    );
    expect(sortIds(result.body.data.companies.map((c: { id: string }) => c.id))).toEqual(sortIds(expected));
    expect(result.body.totalCount).toBe(expected.length);
    expect(statements).toHaveLength(2);
    for (const sql of statements) {
      expect(sql).toContain('"workspaceMember"');
      expect(sql).toContain('"person"');
    }
  });
});
