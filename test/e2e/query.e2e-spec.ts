import { createRecord } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

/** The query language of find many (API.md section 4) on real data. */
describe('find many: filter, order_by, cursors, fields, limit', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  const names = (res: { body: Json }) => res.body.data.companies.map((c: { name: string }) => c.name);
  const list = (query: string) => t.http.get(`/companies?${query}`);
  const q = (params: Record<string, string>) => new URLSearchParams({ depth: '0', ...params }).toString();

  beforeAll(async () => {
    t = await startTestApp();
    const rows = [
      {
        name: 'Acme',
        employees: 10,
        idealCustomerProfile: true,
        address: { addressCity: 'Paris' },
        domainName: { primaryLinkUrl: 'acme.com' },
      },
      { name: 'Beta, Inc. (EU)', employees: 250, idealCustomerProfile: false, address: { addressCity: 'Lyon, FR' } },
      { name: 'gamma', employees: null, idealCustomerProfile: false, address: { addressCity: 'Paris' } },
      { name: 'Delta 100%_off', employees: 42, idealCustomerProfile: true, address: { addressCity: 'Berlin' } },
      { name: 'Say "hi" \\ bye', employees: 7, idealCustomerProfile: false, address: null },
      { name: 'Deleted Co', employees: 1 },
    ];
    for (const row of rows) ids[row.name] = (await t.http.post('/companies?depth=0', row)).body.data.createCompany.id;
    await t.http.delete(`/companies/${ids['Deleted Co']}?soft_delete=true`);
  });
  afterAll(async () => t?.close());

  it.each([
    ['name[eq]:Acme', ['Acme']],
    ['name[neq]:Acme', ['Beta, Inc. (EU)', 'gamma', 'Delta 100%_off', 'Say "hi" \\ bye']],
    ['name[in]:[Acme,gamma]', ['Acme', 'gamma']],
    ['employees[gt]:10', ['Beta, Inc. (EU)', 'Delta 100%_off']],
    ['employees[gte]:10', ['Acme', 'Beta, Inc. (EU)', 'Delta 100%_off']],
    ['employees[lt]:10', ['Say "hi" \\ bye']],
    ['employees[lte]:10', ['Acme', 'Say "hi" \\ bye']],
    ['employees[is]:NULL', ['gamma']],
    ['employees[is]:NOT_NULL', ['Acme', 'Beta, Inc. (EU)', 'Delta 100%_off', 'Say "hi" \\ bye']],
    ['idealCustomerProfile[eq]:true', ['Acme', 'Delta 100%_off']],
    ['name[like]:%a', ['gamma']],
    ['name[ilike]:%A%', ['Acme', 'Beta, Inc. (EU)', 'gamma', 'Delta 100%_off', 'Say "hi" \\ bye']],
    ['name[startsWith]:Del', ['Delta 100%_off']],
    ['name[endsWith]:100%_off', ['Delta 100%_off']],
    ['name[startsWith]:%', []],
    ['name[endsWith]:_', []],
    ['address.addressCity[eq]:Paris', ['Acme', 'gamma']],
    ['address.addressCity[eq]:"Lyon, FR"', ['Beta, Inc. (EU)']],
    ['name[eq]:"Beta, Inc. (EU)"', ['Beta, Inc. (EU)']],
    ['name[eq]:"Say \\"hi\\" \\\\ bye"', ['Say "hi" \\ bye']],
    ['name[in]:[\'Acme\',"Beta, Inc. (EU)"]', ['Acme', 'Beta, Inc. (EU)']],
    ['domainName.primaryLinkUrl[eq]:acme.com', ['Acme']],
    ['or(employees[lt]:10,name[eq]:gamma)', ['gamma', 'Say "hi" \\ bye']],
    ['and(idealCustomerProfile[eq]:true,employees[gt]:20)', ['Delta 100%_off']],
    ['idealCustomerProfile[eq]:true,employees[gt]:20', ['Delta 100%_off']],
    ['not(address.addressCity[eq]:Paris)', ['Beta, Inc. (EU)', 'Delta 100%_off']],
    ['or(and(not(name[eq]:Acme),address.addressCity[eq]:Paris),employees[eq]:250)', ['Beta, Inc. (EU)', 'gamma']],
    ['deletedAt[is]:NOT_NULL', ['Deleted Co']],
    ['id[in]:[]', []],
  ])('filter=%s', async (filter, expected) => {
    const res = await list(q({ filter, order_by: 'createdAt' }));
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(expected);
    expect(res.body.totalCount).toBe(expected.length);
  });

  it('filters on join columns and enum, array and composite numeric fields', async () => {
    const company = await createRecord(t.http, 'companies', { name: 'Owner' });
    const person = await createRecord(t.http, 'people', { companyId: company.id });
    const people = await t.http.get(`/people?depth=0&filter=companyId[in]:[${company.id}]`);
    expect(people.body.data.people.map((p: { id: string }) => p.id)).toEqual([person.id]);
    await createRecord(t.http, 'opportunities', {
      name: 'Big',
      stage: 'PROPOSAL',
      amount: { amountMicros: 5_000_000_000, currencyCode: 'EUR' },
    });
    const opps = await t.http.get(
      '/opportunities?depth=0&filter=amount.amountMicros[gte]:1000000000,stage[in]:[PROPOSAL,CUSTOMER]',
    );
    expect(opps.body.data.opportunities.map((o: { name: string }) => o.name)).toEqual(['Big']);
    await createRecord(t.http, 'workflows', { name: 'wf', statuses: ['ACTIVE', 'DRAFT'] });
    const wf = await t.http.get('/workflows?depth=0&filter=statuses[containsAny]:[ACTIVE]');
    expect(wf.body.data.workflows.map((w: { name: string }) => w.name)).toEqual(['wf']);
    await createRecord(t.http, 'connectedAccounts', { handle: 'scoped', scopes: ['mail.read', 'calendar'] });
    const ca = await t.http.get('/connectedAccounts?depth=0&filter=scopes[containsAny]:["calendar"]');
    expect(ca.body.data.connectedAccounts.map((c: { handle: string }) => c.handle)).toEqual(['scoped']);
    const dates = await t.http.get(
      `/companies?depth=0&filter=createdAt[gte]:2000-01-01T00:00:00Z,createdAt[lt]:2999-01-01`,
    );
    expect(dates.body.totalCount).toBeGreaterThan(0);
  });

  it.each([
    ['foo[eq]:1', "field 'foo' does not exist in 'company' object"],
    ['address[eq]:x', "'address' is a composite field: name one of its sub-fields, e.g. address.addressStreet1"],
    ['accountOwner[eq]:x', "'accountOwner' is a relation: use its join column accountOwnerId"],
    ['employees[eq]:many', "Invalid filter value 'many' for field 'employees': expected a number"],
    [
      'idealCustomerProfile[eq]:yes',
      "Invalid filter value 'yes' for field 'idealCustomerProfile': expected true or false",
    ],
    ['id[eq]:123', "Invalid filter value '123' for field 'id': expected a UUID"],
    [
      'createdAt[gt]:yesterday',
      "Invalid filter value 'yesterday' for field 'createdAt': expected an ISO 8601 date-time, e.g. 2026-11-21T10:04:05Z",
    ],
    [
      'employees[like]:1%',
      "Operator 'like' cannot be used on field 'employees' (NUMBER); allowed: eq, neq, in, is, gt, gte, lt, lte",
    ],
    [
      'name[containsAny]:[a]',
      "Operator 'containsAny' cannot be used on field 'name' (TEXT); allowed: eq, neq, in, is, gt, gte, lt, lte, startsWith, endsWith, like, ilike",
    ],
    ['name[in]:Acme', "Operator 'in' on 'name' expects a list, e.g. name[in]:[a,b]"],
    ['name[eq]:[Acme]', "Operator 'eq' on 'name' expects a single value, not a list"],
    ['name[is]:EMPTY', "Operator 'is' on 'name' expects NULL or NOT_NULL, got 'EMPTY'"],
    ['name[eq]:"x', 'Invalid filter at position 9: unterminated quoted value, expected a closing "'],
  ])('filter=%s -> 400', async (filter, message) => {
    const res = await list(q({ filter }));
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([message]);
  });

  it('an enum filter value is checked against the options', async () => {
    const res = await t.http.get('/opportunities?filter=stage[eq]:WON');
    expect(res.body.messages).toEqual([
      "Invalid filter value 'WON' for field 'stage': expected one of NEW, SCREENING, MEETING, PROPOSAL, CUSTOMER",
    ]);
  });

  it.each([
    ['employees[AscNullsFirst]', ['gamma', 'Say "hi" \\ bye', 'Acme', 'Delta 100%_off', 'Beta, Inc. (EU)']],
    ['employees[AscNullsLast]', ['Say "hi" \\ bye', 'Acme', 'Delta 100%_off', 'Beta, Inc. (EU)', 'gamma']],
    ['employees[DescNullsFirst]', ['gamma', 'Beta, Inc. (EU)', 'Delta 100%_off', 'Acme', 'Say "hi" \\ bye']],
    ['employees[DescNullsLast]', ['Beta, Inc. (EU)', 'Delta 100%_off', 'Acme', 'Say "hi" \\ bye', 'gamma']],
    [
      'idealCustomerProfile[DescNullsLast],name',
      ['Acme', 'Delta 100%_off', 'Beta, Inc. (EU)', 'Say "hi" \\ bye', 'gamma'],
    ],
    [
      'address.addressCity[AscNullsLast],name[DescNullsLast]',
      ['Delta 100%_off', 'Beta, Inc. (EU)', 'gamma', 'Acme', 'Say "hi" \\ bye'],
    ],
  ])('order_by=%s', async (orderBy, expected) => {
    const res = await list(q({ order_by: orderBy, filter: 'name[neq]:Owner' }));
    expect(res.status).toBe(200);
    expect(names(res).filter((n: string) => expected.includes(n))).toEqual(expected);
  });

  it.each([
    ['address', "'address' is a composite field: name one of its sub-fields, e.g. address.addressStreet1"],
    ['nope', "field 'nope' does not exist in 'company' object"],
    [
      'name[Sideways]',
      "Invalid order_by direction 'Sideways' for 'name', expected one of AscNullsFirst, AscNullsLast, DescNullsFirst, DescNullsLast",
    ],
    ['domainName.secondaryLinks', "Cannot order by 'domainName.secondaryLinks' (RAW_JSON)"],
  ])('order_by=%s -> 400', async (orderBy, message) => {
    const res = await list(q({ order_by: orderBy }));
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([message]);
  });

  it('pages forward and backward with exact pageInfo, in normal order', async () => {
    const sort = { order_by: 'employees[DescNullsLast],name', filter: 'deletedAt[is]:NULL,name[neq]:Owner' };
    const all = names(await list(q(sort)));
    const first = await list(q({ ...sort, limit: '2' }));
    expect(names(first)).toEqual(all.slice(0, 2));
    expect(first.body.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.body.totalCount).toBe(all.length);
    const second = await list(q({ ...sort, limit: '2', starting_after: first.body.pageInfo.endCursor }));
    expect(names(second)).toEqual(all.slice(2, 4));
    expect(second.body.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const third = await list(q({ ...sort, limit: '2', starting_after: second.body.pageInfo.endCursor }));
    expect(names(third)).toEqual(all.slice(4));
    expect(third.body.pageInfo.hasNextPage).toBe(false);
    const back = await list(q({ ...sort, limit: '2', ending_before: third.body.pageInfo.startCursor }));
    expect(names(back)).toEqual(all.slice(2, 4));
    const backToStart = await list(q({ ...sort, limit: '2', ending_before: back.body.pageInfo.startCursor }));
    expect(names(backToStart)).toEqual(all.slice(0, 2));
    expect(backToStart.body.pageInfo.hasPreviousPage).toBe(false);
  });

  it('refuses tampered, foreign and combined cursors', async () => {
    const page = await list(q({ limit: '1' }));
    const cursor: string = page.body.pageInfo.endCursor;
    const tampered = `${cursor.slice(0, 3)}${cursor[3] === 'a' ? 'b' : 'a'}${cursor.slice(4)}`;
    for (const params of <Record<string, string>[]>[
      { starting_after: tampered },
      { starting_after: 'garbage' },
      { starting_after: cursor, order_by: 'name' },
    ]) {
      const res = await list(q(params));
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(['Invalid cursor']);
    }
    const both = await list(q({ starting_after: cursor, ending_before: cursor }));
    expect(both.body.messages).toEqual(['starting_after and ending_before cannot be used together']);
  });

  it('never repeats or skips a row that exists throughout, while rows are inserted', async () => {
    const batch = Array.from({ length: 30 }, (_, i) => ({
      name: `Walk ${String(i).padStart(2, '0')}`,
      employees: i % 7,
    }));
    const existing = (await t.http.post('/batch/companies?depth=0', batch)).body.data.createCompanies.map(
      (c: { id: string }) => c.id,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const res = await list(
        q({
          filter: 'name[startsWith]:Walk',
          order_by: 'employees[DescNullsFirst]',
          limit: '4',
          ...(cursor ? { starting_after: cursor } : {}),
        }),
      );
      seen.push(...res.body.data.companies.map((c: { id: string }) => c.id));
      await t.http.post('/companies?depth=0', { name: `Walk new ${page}`, employees: page % 7 });
      if (!res.body.pageInfo.hasNextPage) break;
      cursor = res.body.pageInfo.endCursor;
    }
    const seenExisting = seen.filter((id) => existing.includes(id));
    expect(new Set(seenExisting).size).toBe(seenExisting.length);
    expect([...new Set(seenExisting)].sort()).toEqual([...existing].sort());
  });

  it('fields: projection with id always, relations obey depth, unknown names refused', async () => {
    const res = await t.http.get('/people?fields=city,company&depth=1&limit=1');
    expect(Object.keys(res.body.data.people[0]).sort()).toEqual(['city', 'company', 'id']);
    const shallow = await t.http.get('/people?fields=city,company&depth=0&limit=1');
    expect(Object.keys(shallow.body.data.people[0]).sort()).toEqual(['city', 'id']);
    const one = await t.http.get(`/companies/${ids.Acme}?fields=name`);
    expect(one.body.data.company).toEqual({ id: ids.Acme, name: 'Acme' });
    expect((await t.http.get('/companies?fields=name,nope')).body.messages).toEqual([
      "field 'nope' does not exist in 'company' object",
    ]);
  });

  it('limit: default 60, larger values capped at 200', async () => {
    const batch = Array.from({ length: 200 }, (_, i) => ({ name: `Cap ${i}` }));
    await t.http.post('/batch/companies?depth=0', batch);
    await t.http.post('/batch/companies?depth=0', batch.slice(0, 20));
    expect((await list('filter=name[startsWith]:Cap')).body.data.companies).toHaveLength(60);
    const capped = await list('filter=name[startsWith]:Cap&limit=5000');
    expect(capped.body.data.companies).toHaveLength(200);
    expect(capped.body.totalCount).toBe(220);
    const zero = await list('filter=name[startsWith]:Cap&limit=0');
    expect(zero.body.data.companies).toEqual([]);
    expect(zero.body.totalCount).toBe(220);
  });
});
