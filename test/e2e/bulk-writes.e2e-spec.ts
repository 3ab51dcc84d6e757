import fc from 'fast-check';
import { startTestApp, TestApp } from '../support/test-app';

const f = (filter: string) => encodeURIComponent(filter);
const ids = (records: { id: string }[]) => records.map((r) => r.id);
const sorted = (values: string[]) => [...values].sort();

/** Update, delete and restore many by filter (API.md section 11). */
describe('bulk writes by filter', () => {
  let t: TestApp;
  let run = 0;
  beforeAll(async () => {
    t = await startTestApp({ BULK_MAX: '25' });
  });
  afterAll(async () => t?.close());

  /** People of a fresh group (city = the group), created through the API. */
  async function group(size: number, extra: (i: number) => Record<string, unknown> = () => ({})) {
    const city = `City-${++run}-${Date.now()}`;
    const body = Array.from({ length: size }, (_, i) => ({
      city,
      jobTitle: `job-${i % 3}`,
      name: { firstName: `P${i}`, lastName: city },
      ...extra(i),
    }));
    const res = await t.http.post('/batch/people?depth=0', body);
    expect(res.status).toBe(201);
    return { city, people: res.body.data.createPeople as { id: string }[] };
  }
  const auditCount = async (name: string, recordIds: string[]) =>
    (
      await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "auditLog" WHERE name = $1 AND "recordId" = ANY($2::uuid[])`,
        [name, recordIds],
      )
    )[0].n;

  it('a filter is mandatory: missing or empty -> 400 filter is required, nothing changes', async () => {
    for (const [method, path] of [
      ['PATCH', '/people'],
      ['PATCH', '/people?filter='],
      ['PUT', '/people?filter=%20'],
      ['DELETE', '/people'],
      ['PATCH', '/people/restore'],
      ['PATCH', '/restore/people?filter='],
    ]) {
      const res = await t.http.request(method, path, method === 'DELETE' ? {} : { body: { jobTitle: 'x' } });
      expect({ method, path, status: res.status, messages: res.body.messages }).toEqual({
        method,
        path,
        status: 400,
        messages: ['filter is required'],
      });
    }
  });

  it('update many: every match updated (sorted by id), one event each, soft-deleted ones left alone', async () => {
    const { city, people } = await group(6);
    await t.http.delete(`/people/${people[5].id}?soft_delete=true`);
    const res = await t.http.patch(`/people?filter=${f(`city[eq]:"${city}"`)}&depth=0`, {
      jobTitle: 'Updated',
      phones: { primaryPhoneNumber: '+33 1 23' },
    });
    expect(res.status).toBe(200);
    const updated = res.body.data.updatePeople;
    expect(ids(updated)).toEqual(sorted(ids(people.slice(0, 5))));
    expect(
      updated.every(
        (p: { jobTitle: string; phones: { primaryPhoneNumber: string } }) =>
          p.jobTitle === 'Updated' && p.phones.primaryPhoneNumber === '+33 1 23',
      ),
    ).toBe(true);
    expect(await auditCount('person.updated', ids(people))).toBe(5);
    const soft = await t.http.get(`/people?filter=${f(`id[eq]:${people[5].id},deletedAt[is]:NOT_NULL`)}&depth=0`);
    expect(soft.body.data.people[0].jobTitle).toBe('job-2');
    // a filter naming deletedAt reaches soft-deleted records too; PUT is an alias
    const all = await t.http.request(
      'PUT',
      `/people?filter=${f(`city[eq]:"${city}",or(deletedAt[is]:NULL,deletedAt[is]:NOT_NULL)`)}&fields=id,jobTitle`,
      { body: { jobTitle: 'All' } },
    );
    expect(all.status).toBe(200);
    expect(all.body.data.updatePeople).toEqual(sorted(ids(people)).map((id) => ({ id, jobTitle: 'All' })));
  });

  it('update many: a bad body or a unique conflict is a 400 and nothing changes', async () => {
    const { city, people } = await group(3, (i) => ({ emails: { primaryEmail: `u${i}-${Date.now()}@bulk.test` } }));
    const bad = await t.http.patch(`/people?filter=${f(`city[eq]:"${city}"`)}`, { jobTitle: 42, nope: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual(expect.arrayContaining(['property nope should not exist']));
    const conflict = await t.http.patch(`/people?filter=${f(`city[eq]:"${city}"`)}`, {
      jobTitle: 'Never',
      emails: { primaryEmail: `same-${Date.now()}@bulk.test` },
    });
    expect(conflict.status).toBe(400);
    expect(conflict.body.messages.join(' ')).toMatch(/emails\.primaryEmail/);
    const after = await t.http.get(`/people?filter=${f(`city[eq]:"${city}"`)}&depth=0`);
    expect(after.body.data.people.map((p: { jobTitle: string }) => p.jobTitle).sort()).toEqual([
      'job-0',
      'job-1',
      'job-2',
    ]);
    expect(await auditCount('person.updated', ids(people))).toBe(0);
  });

  it('more matches than BULK_MAX: 400 naming the count, nothing changes; no match: 200 []', async () => {
    const { city } = await group(26);
    const res = await t.http.patch(`/people?filter=${f(`city[eq]:"${city}"`)}`, { jobTitle: 'Too many' });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual(['The filter matches 26 records; at most 25 per request']);
    const list = await t.http.get(`/people?filter=${f(`city[eq]:"${city}",jobTitle[eq]:"Too many"`)}`);
    expect(list.body.totalCount).toBe(0);
    const none = await t.http.patch(`/people?filter=${f('city[eq]:"nowhere at all"')}`, { jobTitle: 'x' });
    expect(none.status).toBe(200);
    expect(none.body.data.updatePeople).toEqual([]);
  });

  it('delete many (soft, then hard) and restore many (and its alias), with their events', async () => {
    const { city, people } = await group(4);
    const filter = f(`city[eq]:"${city}"`);
    const soft = await t.http.delete(`/people?filter=${filter}&soft_delete=true&depth=0`);
    expect(soft.status).toBe(200);
    expect(ids(soft.body.data.deletePeople)).toEqual(sorted(ids(people)));
    expect(soft.body.data.deletePeople.every((p: { deletedAt: string | null }) => p.deletedAt !== null)).toBe(true);
    expect(await auditCount('person.deleted', ids(people))).toBe(4);
    expect((await t.http.get(`/people?filter=${filter}`)).body.totalCount).toBe(0);

    const restored = await t.http.patch(
      `/people/restore?filter=${f(`city[eq]:"${city}",name.firstName[in]:[P0,P1]`)}&depth=0`,
    );
    expect(ids(restored.body.data.restorePeople)).toEqual(sorted(ids(people.slice(0, 2))));
    const alias = await t.http.patch(`/restore/people?filter=${filter}&depth=0`);
    expect(ids(alias.body.data.restorePeople)).toEqual(sorted(ids(people.slice(2))));
    expect(await auditCount('person.restored', ids(people))).toBe(4);

    const hard = await t.http.delete(`/people?filter=${filter}`);
    expect(hard.body.data.deletePeople).toEqual(sorted(ids(people)).map((id) => ({ id })));
    expect(await auditCount('person.destroyed', ids(people))).toBe(4);
    const [{ n }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM person WHERE id = ANY($1::uuid[])',
      [ids(people)],
    );
    expect(n).toBe(0);
  });

  it('aliases of one record: PUT updates like PATCH, PATCH /restore/people/<id> restores', async () => {
    const { people } = await group(1);
    const [{ id }] = people;
    const put = await t.http.request('PUT', `/people/${id}?depth=0`, { body: { jobTitle: 'Put' } });
    expect(put.status).toBe(200);
    expect(put.body.data.updatePerson).toMatchObject({ id, jobTitle: 'Put' });
    expect((await t.http.get(`/people/${id}?depth=0`)).body.data.person.jobTitle).toBe('Put');
    expect(await auditCount('person.updated', [id])).toBe(1);
    expect((await t.http.delete(`/people/${id}?soft_delete=true`)).status).toBe(200);
    const restored = await t.http.patch(`/restore/people/${id}?depth=0`);
    expect(restored.status).toBe(200);
    expect(restored.body.data.restorePerson).toMatchObject({ id, deletedAt: null, jobTitle: 'Put' });
    expect((await t.http.get(`/people/${id}`)).status).toBe(200);
    expect(await auditCount('person.restored', [id])).toBe(1);
  });

  it('an update many racing single PATCHes of other fields loses no write', async () => {
    const { city, people } = await group(10);
    const singles = people.map((p, i) => t.http.patch(`/people/${p.id}?depth=0`, { avatarUrl: `avatar-${i}` }));
    const bulk = t.http.patch(`/people?filter=${f(`city[eq]:"${city}"`)}&depth=0`, { jobTitle: 'Raced' });
    const answers = await Promise.all([bulk, ...singles]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const after = (await t.http.get(`/people?filter=${f(`city[eq]:"${city}"`)}&depth=0&limit=20`)).body.data.people;
    for (const [i, p] of people.entries()) {
      const row = after.find((r: { id: string }) => r.id === p.id);
      expect({ jobTitle: row.jobTitle, avatarUrl: row.avatarUrl }).toEqual({
        jobTitle: 'Raced',
        avatarUrl: `avatar-${i}`,
      });
    }
  });

  it('property: the set an update or delete many changes is the set a list with the same filter returns', async () => {
    const { city } = await group(20, (i) => ({ position: i, avatarUrl: i % 2 ? 'odd' : 'even' }));
    const leaf = fc.oneof(
      fc.integer({ min: 0, max: 20 }).map((n) => `position[gte]:${n}`),
      fc.integer({ min: 0, max: 20 }).map((n) => `position[lt]:${n}`),
      fc.constantFrom(
        'jobTitle[eq]:job-0',
        'jobTitle[in]:[job-1,job-2]',
        'avatarUrl[eq]:odd',
        'name.firstName[like]:"P1%"',
      ),
    );
    const filter = fc.oneof(
      leaf,
      fc.tuple(leaf, leaf).map(([a, b]) => `or(${a},${b})`),
      leaf.map((l) => `not(${l})`),
    );
    await fc.assert(
      fc.asyncProperty(filter, fc.boolean(), async (expression, remove) => {
        const full = f(`city[eq]:"${city}",${expression}`);
        const expected = ids((await t.http.get(`/people?filter=${full}&depth=0&limit=100`)).body.data.people);
        const mark = `m-${Math.random().toString(36).slice(2)}`;
        const res = remove
          ? await t.http.delete(`/people?filter=${full}&soft_delete=true&depth=0`)
          : await t.http.patch(`/people?filter=${full}&depth=0`, { avatarUrl: mark });
        const changed = ids(remove ? res.body.data.deletePeople : res.body.data.updatePeople);
        expect(changed).toEqual(sorted(expected));
        if (remove) await t.http.patch(`/people/restore?filter=${f(`city[eq]:"${city}"`)}`);
      }),
      { seed: 1511, numRuns: 25 },
    );
  });
});
