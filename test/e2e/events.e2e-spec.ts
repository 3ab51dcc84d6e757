import { recordJsonSql } from '../../src/core/repository/record-json';
import { ALL_COLLECTIONS, createRecord } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

/** Record events: one audit row per event in the change's transaction, and timeline rows. */
describe('record events: audit log and timeline', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const history = async (id: string) =>
    (await t.http.get(`/auditLogs?depth=0&order_by=createdAt&filter=recordId[eq]:${id}`)).body.data.auditLogs as Json[];

  it('GET /auditLogs?filter=recordId[eq]:<id> shows the whole history of a record', async () => {
    const company = await createRecord(t.http, 'companies', { name: 'Audited' });
    await t.http.patch(`/companies/${company.id}`, { name: 'Audited 2', employees: 5 });
    await t.http.patch(`/companies/${company.id}`, {}); // changes nothing: no event
    await t.http.delete(`/companies/${company.id}?soft_delete=true`);
    await t.http.patch(`/companies/${company.id}/restore`);
    await t.http.delete(`/companies/${company.id}`);
    const rows = await history(company.id);
    expect(rows.map((r) => r.name)).toEqual([
      'company.created',
      'company.updated',
      'company.deleted',
      'company.restored',
      'company.destroyed',
    ]);
    const [created, updated, deleted, , destroyed] = rows;
    expect(created).toMatchObject({ objectName: 'company', context: { apiKeyId: expect.any(String) } });
    expect(created.properties.after).toMatchObject({ id: company.id, name: 'Audited' });
    expect(updated.properties.diff).toEqual({
      name: { before: 'Audited', after: 'Audited 2' },
      employees: { before: company.employees, after: 5 },
    });
    expect(deleted.properties.before).toMatchObject({ deletedAt: null });
    expect(destroyed.properties.before).toMatchObject({ name: 'Audited 2' });
  });

  it('a batch emits one event per record; a rolled-back batch emits nothing', async () => {
    const [{ n: before }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "auditLog"');
    const ok = await t.http.post('/batch/people?depth=0', [{ city: 'A' }, { city: 'B' }, { city: 'C' }]);
    expect(ok.status).toBe(201);
    const [{ n: afterOk }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "auditLog"');
    expect(afterOk - before).toBe(3);
    const taken = `taken-${Date.now()}@example.com`;
    await t.http.post('/people', { emails: { primaryEmail: taken } });
    const [{ n: beforeFail }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "auditLog"');
    const failed = await t.http.post('/batch/people', [{ city: 'D' }, { emails: { primaryEmail: taken } }]);
    expect(failed.status).toBe(400);
    const [{ n: afterFail }] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM "auditLog"');
    expect(afterFail).toBe(beforeFail);
  });

  it('audit rows match writes one to one under concurrent load', async () => {
    const [{ n: before }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "auditLog" WHERE "objectName" = \'opportunity\'',
    );
    const writes = await Promise.all(
      Array.from({ length: 24 }, (_, i) => t.http.post('/opportunities?depth=0', { name: `Load ${i}` })),
    );
    expect(writes.every((w) => w.status === 201)).toBe(true);
    const [{ n: after }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM "auditLog" WHERE "objectName" = \'opportunity\'',
    );
    expect(after - before).toBe(24);
  });

  it('timeline rows for collections with a timeline, and on the targets of note targets', async () => {
    const person = await createRecord(t.http, 'people');
    await t.http.patch(`/people/${person.id}`, { city: 'Rome' });
    const timeline = (
      await t.http.get(`/timelineActivities?depth=0&order_by=createdAt&filter=personId[eq]:${person.id}`)
    ).body.data.timelineActivities;
    expect(timeline.map((r: { name: string }) => r.name)).toEqual(['person.created', 'person.updated']);
    const note = await createRecord(t.http, 'notes', { title: 'Call notes' });
    await t.http.post('/noteTargets', { noteId: note.id, personId: person.id });
    const linked = (
      await t.http.get(`/timelineActivities?depth=0&filter=and(personId[eq]:${person.id},name[eq]:linked-note.created)`)
    ).body.data.timelineActivities;
    expect(linked).toHaveLength(1);
    expect(linked[0].linkedRecordId).toBe(note.id);
    const noTimeline = await createRecord(t.http, 'webhooks');
    expect((await t.http.get(`/timelineActivities?filter=linkedRecordId[eq]:${noTimeline.id}`)).body.totalCount).toBe(
      0,
    );
  });

  it('events never carry secrets', async () => {
    const account = await createRecord(t.http, 'connectedAccounts', { accessToken: 'ya29.very-secret' });
    const webhook = await createRecord(t.http, 'webhooks', { secret: 'hook-secret-value' });
    const rows = [...(await history(account.id)), ...(await history(webhook.id))];
    expect(rows).toHaveLength(2);
    expect(JSON.stringify(rows)).not.toMatch(/ya29|hook-secret-value/);
    expect(rows[0].properties.after.accessToken).toBe('[redacted]');
  });

  it('the event copy PostgreSQL builds of a record (set-based writes) is the record the API answers, for every collection', async () => {
    let compared = 0;
    for (const meta of ALL_COLLECTIONS) {
      const created = await t.http.post(`/${meta.plural}?depth=0`, {});
      const record =
        created.status === 201
          ? created.body.data[`create${meta.def.pascal}`]
          : await createRecord(t.http, meta.plural);
      const full = await createRecord(t.http, meta.plural);
      for (const id of [record.id, full.id]) {
        const answered = (await t.http.get(`/${meta.plural}/${id}?depth=0`)).body.data[meta.def.singular];
        for (const field of meta.fields) if (field.encrypted) answered[field.name] = '[redacted]';
        const [{ json }] = await t.db.query(
          `SELECT ${recordJsonSql(meta, 't')} AS "json" FROM "${meta.table}" t WHERE t."id" = $1`,
          [id],
        );
        expect({ collection: meta.plural, record: json }).toEqual({ collection: meta.plural, record: answered });
        compared += 1;
      }
    }
    expect(compared).toBe(2 * ALL_COLLECTIONS.length);
  });

  it('an update many writes the same events as single updates: audit properties, timeline, updatedFields', async () => {
    const city = `Events-${Date.now()}`;
    const body = {
      city,
      name: { firstName: 'Bo', lastName: 'Lund' },
      jobTitle: 'Clerk',
      phones: { primaryPhoneNumber: '5550100' },
    };
    const create = async () => (await t.http.post('/people?depth=0', body)).body.data.createPerson;
    const [one, two] = [await create(), await create()];
    const single = await t.http.patch(`/people/${one.id}?depth=0`, { jobTitle: 'Pilot', name: { firstName: 'Ann' } });
    expect(single.status).toBe(200);
    const many = await t.http.patch(`/people?depth=0&filter=id[eq]:${two.id}`, {
      jobTitle: 'Pilot',
      name: { firstName: 'Ann' },
    });
    expect(many.status).toBe(200);
    const [a, b] = [(await history(one.id))[1], (await history(two.id))[1]];
    expect(a.name).toBe('person.updated');
    expect(b.name).toBe('person.updated');
    // the same change of records that differ only by id, timestamps and email
    const mask = (record: Json) => ({ ...record, id: 'id', emails: 'emails', createdAt: 'at', updatedAt: 'at' });
    const comparable = (p: Json) => ({ before: mask(p.before), after: mask(p.after), diff: p.diff });
    expect(comparable(b.properties)).toEqual(comparable(a.properties));
    expect(b.properties.diff).toEqual({
      name: { before: { firstName: 'Bo', lastName: 'Lund' }, after: { firstName: 'Ann', lastName: 'Lund' } },
      jobTitle: { before: 'Clerk', after: 'Pilot' },
    });
    expect(Object.keys(b.properties.diff)).toEqual(['name', 'jobTitle']);
    const timeline = (
      await t.http.get(`/timelineActivities?depth=0&filter=and(personId[eq]:${two.id},name[eq]:person.updated)`)
    ).body.data.timelineActivities;
    expect(timeline).toHaveLength(1);
    expect(timeline[0].properties).toEqual(b.properties);
  });
});
