import { Db } from '../../src/core/database/db';
import { catalog, createRecord } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

describe('relations and depth', () => {
  let t: TestApp;
  let company: Record<string, Json>;
  let people: Record<string, Json>[];
  beforeAll(async () => {
    t = await startTestApp();
    company = await createRecord(t.http, 'companies', { name: 'Depth Inc' });
    people = [];
    for (let i = 0; i < 3; i++)
      people.push(await createRecord(t.http, 'people', { companyId: company.id, position: 3 - i }));
    await createRecord(t.http, 'opportunities', { companyId: company.id, pointOfContactId: people[0].id });
  });
  afterAll(async () => t?.close());

  it('depth=0: fields and join columns, no relation fields', async () => {
    const person = (await t.http.get(`/people/${people[0].id}?depth=0`)).body.data.person;
    expect(person.companyId).toBe(company.id);
    expect(person).not.toHaveProperty('company');
    expect(person).not.toHaveProperty('noteTargets');
  });

  it('depth=1 (default): the related record at depth 0 and arrays of related records', async () => {
    const person = (await t.http.get(`/people/${people[0].id}`)).body.data.person;
    expect(person.company).toMatchObject({ id: company.id, name: 'Depth Inc' });
    expect(person.company).not.toHaveProperty('people');
    expect(person.pointOfContactForOpportunities).toHaveLength(1);
    expect(person.noteTargets).toEqual([]);
    const companyRead = (await t.http.get(`/companies/${company.id}`)).body.data.company;
    // ordered by position: the people were created with positions 3, 2, 1
    expect(companyRead.people.map((p: { id: string }) => p.id)).toEqual([...people].reverse().map((p) => p.id));
    expect(companyRead.accountOwner).toBeNull();
  });

  it('depth=2: related records carry their own relations at depth 1', async () => {
    const person = (await t.http.get(`/people/${people[0].id}?depth=2`)).body.data.person;
    expect(person.company.people).toHaveLength(3);
    expect(person.company.opportunities).toHaveLength(1);
    expect(person.company.people[0]).not.toHaveProperty('company');
    const companyRead = (await t.http.get(`/companies/${company.id}?depth=2`)).body.data.company;
    expect(companyRead.people[0].company).toMatchObject({ id: company.id });
    expect(companyRead.opportunities[0].pointOfContact).toMatchObject({ id: people[0].id });
  });

  it('depth is accepted on every route that returns records', async () => {
    const created = await t.http.post('/people?depth=0', { companyId: company.id });
    expect(created.body.data.createPerson).not.toHaveProperty('company');
    const batch = await t.http.post('/batch/people?depth=1', [{ companyId: company.id }]);
    expect(batch.body.data.createPeople[0].company.id).toBe(company.id);
    const updated = await t.http.patch(`/people/${people[1].id}?depth=2`, { city: 'Oslo' });
    expect(updated.body.data.updatePerson.company.people.length).toBeGreaterThan(0);
    const list = await t.http.get('/people?depth=0');
    expect(list.body.data.people[0]).not.toHaveProperty('company');
    const dups = await t.http.post('/companies/duplicates?depth=1', { data: [{ name: 'depth inc' }] });
    expect(dups.body.data[0].companyDuplicates[0].people).toHaveLength(5); // 3 from setup, 2 created above
    expect((await t.http.get('/people?depth=3')).status).toBe(400);
  });

  it('loads relations in a bounded number of queries, whatever the number of rows', async () => {
    // 40 companies of the same shape (one person each), read 10 or 40 at a time
    const companies = (
      await t.http.post(
        '/batch/companies?depth=0',
        Array.from({ length: 40 }, (_, i) => ({ name: `Shape ${i}` })),
      )
    ).body.data.createCompanies;
    await t.http.post(
      '/batch/people?depth=0',
      companies.map((c: { id: string }) => ({ companyId: c.id })),
    );
    const countQueries = async (limit: number) => {
      const db = t.app.get(Db);
      const spy = jest.spyOn(db, 'query');
      const res = await t.http.get(`/companies?depth=2&limit=${limit}&filter=name[startsWith]:Shape`);
      expect(res.status).toBe(200);
      // the count may come from the count cache, the key from the key cache (it expires every few
      // seconds), and background work (outboxes, feed retention and notifications, idempotency
      // expiry) shares the pool: only the page and relation queries are compared
      const bookkeeping =
        /"(apiKey|role|_changes|_changes_state|_imports|fileDeletion|idempotencyKey|webhookDelivery)"|pg_notify/;
      const sqls = spy.mock.calls
        .map(([sql]) => sql as string)
        .filter((sql) => !/^SELECT count\(\*\)/.test(sql) && !bookkeeping.test(sql));
      spy.mockRestore();
      // the spy sees the statements (0 = 0 would pass too): the page of companies, their people
      expect(sqls.some((sql) => /FROM "company"/.test(sql))).toBe(true);
      expect(sqls.some((sql) => /FROM "person"/.test(sql))).toBe(true);
      return { calls: sqls.length, rows: res.body.data.companies.length };
    };
    const small = await countQueries(10);
    const large = await countQueries(40);
    expect([small.rows, large.rows]).toEqual([10, 40]);
    expect(small.calls).toBeGreaterThanOrEqual(2);
    expect(large.calls).toBe(small.calls);
    // the bound: the page, one query per relation, one per relation of each related collection
    const meta = catalog.require('companies');
    const relationsOf = (plural: string) => [
      ...catalog.require(plural).manyToOne,
      ...catalog.require(plural).oneToMany,
    ];
    const bound =
      1 + [...meta.manyToOne, ...meta.oneToMany].reduce((n, rel) => n + 1 + relationsOf(rel.target).length, 0);
    expect(large.calls).toBeLessThanOrEqual(bound);

    console.log(
      `GET /companies?depth=2: ${large.calls} SQL queries (besides the count) for ${large.rows} companies, ${small.calls} for ${small.rows} (bound ${bound})`,
    );
  });

  it('caps one-to-many arrays at 60 records per parent', async () => {
    const big = await createRecord(t.http, 'companies', { name: 'Crowded' });
    const batch = Array.from({ length: 65 }, (_, i) => ({ companyId: big.id, position: i }));
    expect((await t.http.post('/batch/people?depth=0', batch)).status).toBe(201);
    const read = (await t.http.get(`/companies/${big.id}`)).body.data.company;
    expect(read.people).toHaveLength(60);
    expect(read.people.map((p: { position: number }) => p.position)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  describe('onDelete', () => {
    it('SET_NULL clears the join column of the children', async () => {
      const parent = await createRecord(t.http, 'companies', { name: 'Going away' });
      const child = await createRecord(t.http, 'people', { companyId: parent.id });
      expect((await t.http.delete(`/companies/${parent.id}`)).status).toBe(200);
      const after = (await t.http.get(`/people/${child.id}?depth=0`)).body.data.person;
      expect(after.companyId).toBeNull();
    });

    it('CASCADE deletes the children', async () => {
      const account = await createRecord(t.http, 'connectedAccounts');
      const channel = await createRecord(t.http, 'messageChannels', { connectedAccountId: account.id });
      expect((await t.http.delete(`/connectedAccounts/${account.id}`)).status).toBe(200);
      expect((await t.http.get(`/messageChannels/${channel.id}`)).status).toBe(404);
    });

    it('a required join column with SET_NULL is cleared, never left dangling', async () => {
      const member = await createRecord(t.http, 'workspaceMembers');
      const attachment = await createRecord(t.http, 'attachments', { authorId: member.id });
      expect((await t.http.delete(`/workspaceMembers/${member.id}`)).status).toBe(200);
      expect((await t.http.get(`/attachments/${attachment.id}?depth=0`)).body.data.attachment.authorId).toBeNull();
      // still required when written
      expect((await t.http.post('/attachments', { name: 'x' })).body.messages).toContain('authorId is required');
    });

    it('soft delete leaves the children alone and hides the parent from relations', async () => {
      const parent = await createRecord(t.http, 'companies', { name: 'Soft' });
      const child = await createRecord(t.http, 'people', { companyId: parent.id });
      await t.http.delete(`/companies/${parent.id}?soft_delete=true`);
      const after = (await t.http.get(`/people/${child.id}`)).body.data.person;
      expect(after.companyId).toBe(parent.id);
      expect(after.company).toBeNull();
    });
  });
});
