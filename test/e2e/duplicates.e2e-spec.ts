import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

describe('find duplicates', () => {
  let t: TestApp;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await startTestApp();
    const people = [
      { key: 'ada', name: { firstName: 'Ada', lastName: 'Lovelace' }, emails: { primaryEmail: 'ada@acme.com' } },
      { key: 'ada2', name: { firstName: 'ADA', lastName: 'lovelace' }, emails: { primaryEmail: 'ada.l@other.com' } },
      { key: 'mail', name: { firstName: 'Augusta', lastName: 'King' }, emails: { primaryEmail: 'ADA@ACME.COM.' } },
      { key: 'short', name: { firstName: 'Al', lastName: 'Li' }, emails: { primaryEmail: 'al@x.io' } },
      { key: 'short2', name: { firstName: 'Al', lastName: 'Li' }, emails: { primaryEmail: 'al2@x.io' } },
      { key: 'gone', name: { firstName: 'Ada', lastName: 'Lovelace' }, emails: { primaryEmail: 'gone@acme.com' } },
    ];
    for (const { key, ...body } of people)
      ids[key] = (await t.http.post('/people?depth=0', body)).body.data.createPerson.id;
    await t.http.delete(`/people/${ids.gone}?soft_delete=true`);
  });
  afterAll(async () => t?.close());

  const found = (res: { body: Json }, i = 0) =>
    res.body.data[i].companyDuplicates.map((r: { id: string }) => r.id).sort();

  it('matches on any criterion, case-insensitively, never soft-deleted rows', async () => {
    const res = await t.http.post('/people/duplicates', {
      data: [{ name: { firstName: 'ada', lastName: 'LOVELACE' } }],
    });
    expect(res.status).toBe(200);
    expect(found(res)).toEqual([ids.ada, ids.ada2].sort());
    expect(res.body.data[0].totalCount).toBe(2);
    expect(res.body.data[0].personDuplicates).toEqual(res.body.data[0].companyDuplicates);
  });

  it('needs every field of a criterion', async () => {
    const res = await t.http.post('/people/duplicates', { data: [{ name: { firstName: 'Ada' } }] });
    expect(res.body.data[0]).toMatchObject({ totalCount: 0, companyDuplicates: [] });
  });

  it('values shorter than 3 characters never match', async () => {
    const res = await t.http.post('/people/duplicates', { data: [{ name: { firstName: 'Al', lastName: 'Li' } }] });
    expect(res.body.data[0].companyDuplicates).toEqual([]);
  });

  it('ids mode: one result per found id, in input order, never the record itself', async () => {
    const res = await t.http.post('/people/duplicates', {
      ids: [ids.ada2, '00000000-0000-4000-8000-000000000000', ids.ada],
    });
    expect(res.body.data).toHaveLength(2);
    expect(found(res, 0)).toEqual([ids.ada]);
    expect(found(res, 1)).toEqual([ids.ada2]);
    expect((await t.http.post('/people/duplicates', { ids: [] })).body).toEqual({ data: [] });
  });

  it('one element per input record in data mode', async () => {
    const res = await t.http.post('/people/duplicates', {
      data: [{ emails: { primaryEmail: 'Ada@Acme.com' } }, { city: 'Nowhere' }],
    });
    expect(res.body.data).toHaveLength(2);
    expect(found(res, 0)).toEqual([ids.ada]);
    expect(res.body.data[1]).toMatchObject({ totalCount: 0, companyDuplicates: [], pageInfo: { hasNextPage: false } });
  });

  it('at most 60 duplicates per input, totalCount counts them all', async () => {
    const name = `Crowd ${Date.now()}`;
    const made = await t.http.post(
      '/batch/companies?depth=0',
      Array.from({ length: 62 }, () => ({ name })),
    );
    const all = made.body.data.createCompanies.map((c: { id: string }) => c.id);
    const res = await t.http.post('/companies/duplicates?depth=0', { data: [{ name }] });
    expect(res.status).toBe(200);
    expect(res.body.data[0].totalCount).toBe(62);
    expect(res.body.data[0].companyDuplicates).toHaveLength(60);
    expect(all).toEqual(expect.arrayContaining(found(res)));
    // ids mode: the record itself is left out, 61 others
    const byId = await t.http.post('/companies/duplicates?depth=0', { ids: [all[0]] });
    expect(byId.body.data[0].totalCount).toBe(61);
    expect(byId.body.data[0].companyDuplicates).toHaveLength(60);
  });

  it('collections without criteria answer with empty results', async () => {
    const res = await t.http.post('/notes/duplicates', { data: [{ title: 'Anything' }] });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      {
        totalCount: 0,
        pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
        companyDuplicates: [],
        noteDuplicates: [],
      },
    ]);
  });

  it.each([
    [{}, 'You have to provide either "data" or "ids" argument'],
    [{ data: [{}], ids: [] }, 'You cannot provide both "data" and "ids" arguments'],
    [{ data: [] }, 'data must hold at least one record'],
    [{ ids: ['nope'] }, "[0] 'nope' is not a valid UUID"],
    [{ data: [{ notAField: 1 }] }, '[0] property notAField should not exist'],
    [{ other: 1 }, 'property other should not exist'],
  ])('refuses %j', async (body, message) => {
    const res = await t.http.post('/people/duplicates', body);
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([message]);
  });
});
