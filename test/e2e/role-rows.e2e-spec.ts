import type { Json } from '../support/http';
import { forbidden, keyWithRole, RoleKey } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Row filters (API.md section 14): a key sees and changes only the rows its grant's filter matches,
 * in every statement (lists and counts, get one, group by, duplicates, search, relations, bulk
 * writes), and may not write a record out of them.
 */
describe('role rows: the row filter of a grant', () => {
  let t: TestApp;
  let key: RoleKey;
  let company: Json;
  const ids: Record<string, string> = {};
  const refused = () => forbidden(`API key '${key.name}' may only write opportunities matching its filter`);
  const stageOf = async (id: string) =>
    (await t.db.query<{ stage: string }>('SELECT stage FROM opportunity WHERE id = $1', [id]))[0]?.stage;

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
    key = await keyWithRole(t, [
      { collection: 'opportunities', actions: ['read', 'create', 'update', 'delete'], filter: 'stage[eq]:NEW' },
      { collection: 'companies', actions: ['read'], filter: 'employees[gte]:100' },
    ]);
    company = (await t.http.post('/companies?depth=0', { name: 'Rowco', employees: 500 })).body.data.createCompany;
    const small = (await t.http.post('/companies?depth=0', { name: 'Tinyco', employees: 5 })).body.data.createCompany;
    for (const [name, stage, companyId] of [
      ['Rowdeal new', 'NEW', company.id],
      ['Rowdeal meeting', 'MEETING', company.id],
      ['Rowdeal small', 'NEW', small.id],
    ]) {
      const res = await t.http.post('/opportunities?depth=0', { name, stage, companyId });
      ids[name] = res.body.data.createOpportunity.id;
    }
  });
  afterAll(async () => t?.close());

  it('lists, counts, gets and groups only the rows inside the filter', async () => {
    const list = await key.http.get('/opportunities?depth=0');
    expect(list.body.data.opportunities.map((o: Json) => o.name).sort()).toEqual(['Rowdeal new', 'Rowdeal small']);
    expect(list.body.totalCount).toBe(2);
    expect((await t.http.get('/opportunities?depth=0')).body.totalCount).toBe(3);
    expect((await key.http.get(`/opportunities/${ids['Rowdeal meeting']}`)).status).toBe(404);
    const groups = (await key.http.get('/opportunities/groupBy?group_by=[{"stage":true}]')).body;
    expect(groups).toEqual([{ groupByDimensionValues: ['NEW'], totalCount: 2 }]);
    const search = (await key.http.get('/search?query=Rowdeal')).body.data.search;
    expect(search.map((r: Json) => r.record.name).sort()).toEqual(['Rowdeal new', 'Rowdeal small']);
    const duplicates = await key.http.post('/opportunities/duplicates', {
      data: [{ name: 'Rowdeal meeting', companyId: company.id }],
    });
    expect(duplicates.body.data[0].totalCount).toBe(0);
  });

  it('follows each related collection’s own grant at depth 1: out of its filter, null or left out', async () => {
    const deal = (await key.http.get(`/opportunities/${ids['Rowdeal small']}?depth=1`)).body.data.opportunity;
    expect(deal.companyId).not.toBeNull();
    expect(deal.company).toBeNull();
    const inside = (await key.http.get(`/companies/${company.id}?depth=1`)).body.data.company;
    expect(inside.opportunities.map((o: Json) => o.name)).toEqual(['Rowdeal new']);
    // relations to collections the key cannot read are absent, their join columns stay
    expect(inside).not.toHaveProperty('people');
    expect(deal).not.toHaveProperty('pointOfContact');
    expect(deal).toHaveProperty('pointOfContactId');
  });

  it('changes only the rows inside: out of them, a record is not found (404) by id, and bulk writes skip it', async () => {
    const meeting = ids['Rowdeal meeting'];
    expect((await key.http.patch(`/opportunities/${meeting}`, { name: 'x' })).status).toBe(404);
    expect((await key.http.delete(`/opportunities/${meeting}?soft_delete=true`)).status).toBe(404);
    expect((await key.http.delete(`/opportunities/${meeting}`)).status).toBe(404);
    await t.http.delete(`/opportunities/${meeting}?soft_delete=true`);
    expect((await key.http.patch(`/opportunities/${meeting}/restore`)).status).toBe(404);
    await t.http.patch(`/opportunities/${meeting}/restore`);
    const bulk = await key.http.patch('/opportunities?filter=id[is]:NOT_NULL&depth=0', { position: 7.5 });
    expect(bulk.body.data.updateOpportunities.map((o: Json) => o.name).sort()).toEqual([
      'Rowdeal new',
      'Rowdeal small',
    ]);
    const untouched = await t.http.get(`/opportunities/${meeting}?depth=0`);
    expect(untouched.body.data.opportunity.position).not.toBe(7.5);
  });

  it('may not write a record out of its rows: 403 and nothing written, one record or many', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM opportunity'))[0].n;
    expect((await key.http.post('/opportunities', { name: 'Out', stage: 'MEETING' })).body).toEqual(refused());
    expect(
      (
        await key.http.post('/batch/opportunities', [
          { name: 'In', stage: 'NEW' },
          { name: 'Out', stage: 'MEETING' },
        ])
      ).body,
    ).toEqual(refused());
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM opportunity'))[0].n).toBe(before);
    const id = ids['Rowdeal new'];
    expect((await key.http.patch(`/opportunities/${id}`, { stage: 'MEETING' })).body).toEqual(refused());
    expect(await stageOf(id)).toBe('NEW');
    expect((await key.http.patch('/opportunities?filter=id[is]:NOT_NULL', { stage: 'CUSTOMER' })).body).toEqual(
      refused(),
    );
    expect(await stageOf(id)).toBe('NEW');
    expect((await key.http.post('/opportunities?upsert=true', { id, stage: 'MEETING' })).body).toEqual(refused());
    expect(await stageOf(id)).toBe('NEW');
    const inside = await key.http.post('/opportunities?depth=0', { name: 'Inside', stage: 'NEW' });
    expect(inside.status).toBe(201);
  });
});
