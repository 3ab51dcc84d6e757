import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';

/** Upsert one and many (API.md section 11): matched by id and by unique fields. */
describe('upsert', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const email = (tag: string) => `${tag}-${randomUUID().slice(0, 8)}@upsert.test`;
  const people = async (address: string) =>
    await t.db.query<{ id: string; jobTitle: string; deletedAt: string | null }>(
      `SELECT id, "jobTitle", "deletedAt" FROM person WHERE "emailsPrimaryEmail" = $1`,
      [address],
    );
  const events = async (recordId: string) =>
    (
      await t.db.query<{ name: string }>(
        `SELECT name FROM "auditLog" WHERE "recordId" = $1 ORDER BY "createdAt", name`,
        [recordId],
      )
    ).map((r) => r.name);

  it('one: no match creates (201), a match by unique field is patched, nothing changed means no event', async () => {
    const address = email('one');
    const first = await t.http.post('/people?upsert=true&depth=0', {
      emails: { primaryEmail: address },
      jobTitle: 'First',
    });
    expect(first.status).toBe(201);
    const created = first.body.data.createPerson;
    const second = await t.http.post('/people?upsert=true&depth=0', {
      emails: { primaryEmail: address },
      city: 'Lyon',
    });
    expect(second.status).toBe(201);
    expect(second.body.data.createPerson).toMatchObject({ id: created.id, jobTitle: 'First', city: 'Lyon' });
    const third = await t.http.post('/people?upsert=true&depth=0', { emails: { primaryEmail: address }, city: 'Lyon' });
    expect(third.body.data.createPerson.updatedAt).toBe(second.body.data.createPerson.updatedAt);
    expect(await events(created.id)).toEqual(['person.created', 'person.updated']);
    expect(await people(address)).toHaveLength(1);
  });

  it('companies match by domainName.primaryLinkUrl; empty values never match', async () => {
    const domain = `https://${randomUUID().slice(0, 8)}.upsert.test`;
    const first = (
      await t.http.post('/companies?depth=0', { name: 'Domain Co', domainName: { primaryLinkUrl: domain } })
    ).body.data.createCompany;
    const matched = await t.http.post('/companies?upsert=true&depth=0', {
      domainName: { primaryLinkUrl: domain },
      employees: 40,
    });
    expect(matched.status).toBe(201);
    expect(matched.body.data.createCompany).toMatchObject({ id: first.id, name: 'Domain Co', employees: 40 });
    // an empty domain (the default of every company without one) never matches, nor do two of them
    const blank = (await t.http.post('/companies?depth=0', { name: 'No domain' })).body.data.createCompany;
    expect(blank.domainName.primaryLinkUrl).toBe('');
    const empties = await t.http.post('/batch/companies?upsert=true&depth=0', [
      { name: 'No domain A', domainName: { primaryLinkUrl: '' } },
      { name: 'No domain B', domainName: { primaryLinkUrl: '' } },
    ]);
    expect(empties.status).toBe(201);
    const [a, b] = empties.body.data.createCompanies;
    expect(new Set([a.id, b.id, blank.id, first.id]).size).toBe(4);
    for (const { id } of [a, b, blank]) expect(await events(id)).toEqual(['company.created']);
  });

  it('by id, and a soft-deleted match is restored', async () => {
    const created = (await t.http.post('/companies?depth=0', { name: 'Soft' })).body.data.createCompany;
    await t.http.delete(`/companies/${created.id}?soft_delete=true`);
    const res = await t.http.post('/companies?upsert=true&depth=0', { id: created.id.toUpperCase(), employees: 12 });
    expect(res.status).toBe(201);
    expect(res.body.data.createCompany).toMatchObject({ id: created.id, name: 'Soft', employees: 12, deletedAt: null });
    expect(await events(created.id)).toEqual(expect.arrayContaining(['company.restored', 'company.updated']));
  });

  it('many: half new, half existing, answered in input order, all in one request', async () => {
    const existing = (
      await t.http.post(
        '/batch/people?depth=0',
        [0, 1, 2].map((i) => ({ emails: { primaryEmail: email(`old${i}`) }, jobTitle: 'Old' })),
      )
    ).body.data.createPeople;
    const items = [
      { emails: existing[1].emails, jobTitle: 'Updated 1' },
      { emails: { primaryEmail: email('new0') }, jobTitle: 'New 0' },
      { id: existing[0].id, jobTitle: 'Updated 0' },
      { emails: { primaryEmail: email('new1') }, jobTitle: 'New 1' },
    ];
    const res = await t.http.post('/batch/people?upsert=true&depth=0', items);
    expect(res.status).toBe(201);
    const out = res.body.data.createPeople;
    expect(out.map((p: { jobTitle: string }) => p.jobTitle)).toEqual(['Updated 1', 'New 0', 'Updated 0', 'New 1']);
    expect(out[0].id).toBe(existing[1].id);
    expect(out[2].id).toBe(existing[0].id);
    // the same upsert again leaves the data as after the first
    const again = await t.http.post('/batch/people?upsert=true&depth=0', items);
    expect(again.body.data.createPeople.map((p: { id: string }) => p.id)).toEqual(out.map((p: { id: string }) => p.id));
    expect((await people(items[1].emails!.primaryEmail)).length).toBe(1);
  });

  it('conflicts: keys matching two records, two items resolving to one record -> 400, nothing written', async () => {
    const a = (await t.http.post('/people?depth=0', { emails: { primaryEmail: email('a') } })).body.data.createPerson;
    const b = (await t.http.post('/people?depth=0', { emails: { primaryEmail: email('b') } })).body.data.createPerson;
    const two = await t.http.post('/people?upsert=true', { id: a.id, emails: b.emails, jobTitle: 'Never' });
    expect(two.status).toBe(400);
    expect(two.body.messages[0]).toMatch(
      /^UPSERT_MULTIPLE_MATCHING_RECORDS_CONFLICT: \[0\] id \/ emails\.primaryEmail match different records$/,
    );
    const fresh = email('dup');
    const same = await t.http.post('/batch/people?upsert=true', [
      { jobTitle: 'x' },
      { emails: { primaryEmail: fresh } },
      { emails: { primaryEmail: fresh }, jobTitle: 'Never' },
    ]);
    expect(same.status).toBe(400);
    expect(same.body.messages).toEqual([`[1] and [2] resolve to the same record (emails.primaryEmail:${fresh})`]);
    const sameRecord = await t.http.post('/batch/people?upsert=true', [
      { id: a.id },
      { emails: a.emails, jobTitle: 'Never' },
    ]);
    expect(sameRecord.body.messages).toEqual([`[0] and [1] resolve to the same record (id ${a.id})`]);
    expect(await people(fresh)).toHaveLength(0);
    expect((await people(a.emails.primaryEmail))[0].jobTitle).toBe('');
  });

  it('items that create are full creates: a bad or missing value is a 400 naming the item', async () => {
    const bad = await t.http.post('/batch/webhooks?upsert=true', [{ description: 'no target' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.messages.join(' ')).toMatch(/^\[0\] targetUrl/);
    const typed = await t.http.post('/people?upsert=true', { emails: { primaryEmail: 42 } });
    expect(typed.status).toBe(400);
  });

  it('20 concurrent upserts of one new email: all 201, exactly one record', async () => {
    const address = email('race');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.http.post('/people?upsert=true&depth=0', { emails: { primaryEmail: address }, city: `c${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
    expect(new Set(answers.map((a) => a.body.data.createPerson.id)).size).toBe(1);
    expect(await people(address)).toHaveLength(1);
    const id = answers[0].body.data.createPerson.id;
    expect((await events(id)).filter((e) => e === 'person.created')).toHaveLength(1);
  });

  it('Idempotency-Key: the first answer is replayed, a different request with the key is a 422', async () => {
    const key = randomUUID();
    const body = { emails: { primaryEmail: email('idem') }, jobTitle: 'Once' };
    const first = await t.http.post('/people?upsert=true&depth=0', body, { headers: { 'idempotency-key': key } });
    const second = await t.http.post('/people?upsert=true&depth=0', body, { headers: { 'idempotency-key': key } });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    const other = await t.http.post(
      '/people?upsert=true&depth=0',
      { ...body, jobTitle: 'Twice' },
      { headers: { 'idempotency-key': key } },
    );
    expect(other.status).toBe(422);
  });

  it('honours fields on the records it answers (API.md section 11), creates as well', async () => {
    const address = email('fields');
    const one = await t.http.post('/people?upsert=true&depth=0&fields=id,city', {
      emails: { primaryEmail: address },
      city: 'Oslo',
    });
    expect(one.status).toBe(201);
    expect(Object.keys(one.body.data.createPerson).sort()).toEqual(['city', 'id']);
    const many = await t.http.post('/batch/people?upsert=true&fields=jobTitle', [
      { emails: { primaryEmail: address }, jobTitle: 'Pilot' },
    ]);
    expect(many.body.data.createPeople).toEqual([{ id: one.body.data.createPerson.id, jobTitle: 'Pilot' }]);
    const created = await t.http.post('/companies?fields=name', { name: 'Fielded' });
    expect(Object.keys(created.body.data.createCompany).sort()).toEqual(['id', 'name']);
  });

  it('upsert must be true or false', async () => {
    const res = await t.http.post('/people?upsert=yes', {});
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual(["'upsert=yes' parameter invalid. Allowed values are true, false"]);
  });
});
