import { randomUUID } from 'node:crypto';
import { createRecord } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** Merge (API.md section 11): fields filled, lists united, references re-pointed, merged-away soft-deleted. */
describe('merge', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  const tag = () => randomUUID().slice(0, 8);
  const audit = async (ids: string[]) =>
    (
      await t.db.query<{ name: string; recordId: string }>(
        `SELECT name, "recordId" FROM "auditLog" WHERE "recordId" = ANY($1::uuid[]) AND name NOT LIKE '%.created'`,
        [ids],
      )
    )
      .map((r) => `${r.name} ${r.recordId}`)
      .sort();

  /** Three people and records of other collections that point at them. */
  async function fixture() {
    const t0 = tag();
    const [a, b, c] = (
      await t.http.post('/batch/people?depth=0', [
        {
          name: { firstName: 'Ada', lastName: t0 },
          emails: { primaryEmail: `ada-${t0}@m.test`, additionalEmails: ['x@m.test'] },
        },
        {
          city: 'Paris',
          emails: { primaryEmail: `b-${t0}@m.test`, additionalEmails: ['y@m.test', 'x@m.test'] },
          phones: { primaryPhoneNumber: '123' },
        },
        { jobTitle: 'Countess', city: 'London' },
      ])
    ).body.data.createPeople;
    const note = (await t.http.post('/notes?depth=0', { title: `n-${t0}` })).body.data.createNote;
    const noteTarget = (await t.http.post('/noteTargets?depth=0', { noteId: note.id, personId: b.id })).body.data
      .createNoteTarget;
    const taskTarget = (await t.http.post('/taskTargets?depth=0', { personId: c.id })).body.data.createTaskTarget;
    const opportunity = (await t.http.post('/opportunities?depth=0', { name: `o-${t0}`, pointOfContactId: b.id })).body
      .data.createOpportunity;
    return { a, b, c, noteTarget, taskTarget, opportunity };
  }

  it('merges into ids[conflictPriorityIndex]: empty fields filled in ids order, lists united, references re-pointed, the others soft-deleted', async () => {
    const { a, b, c, noteTarget, taskTarget, opportunity } = await fixture();
    const res = await t.http.patch('/people/merge?depth=0', { ids: [a.id, b.id, c.id] });
    expect(res.status).toBe(200);
    const survivor = res.body.data.mergePerson;
    expect(survivor).toMatchObject({
      id: a.id,
      name: a.name,
      city: 'Paris',
      jobTitle: 'Countess',
      emails: { primaryEmail: a.emails.primaryEmail, additionalEmails: ['x@m.test', 'y@m.test'] },
      phones: { primaryPhoneNumber: '123' },
    });
    expect((await t.http.get(`/noteTargets/${noteTarget.id}?depth=0`)).body.data.noteTarget.personId).toBe(a.id);
    expect((await t.http.get(`/taskTargets/${taskTarget.id}?depth=0`)).body.data.taskTarget.personId).toBe(a.id);
    expect((await t.http.get(`/opportunities/${opportunity.id}?depth=0`)).body.data.opportunity.pointOfContactId).toBe(
      a.id,
    );
    for (const gone of [b, c]) expect((await t.http.get(`/people/${gone.id}`)).status).toBe(404);
    const [{ n }] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM person WHERE id = ANY($1::uuid[]) AND "deletedAt" IS NOT NULL',
      [[b.id, c.id]],
    );
    expect(n).toBe(2);
    expect(await audit([a.id, b.id, c.id, noteTarget.id, taskTarget.id, opportunity.id])).toEqual(
      [
        `person.updated ${a.id}`,
        `person.deleted ${b.id}`,
        `person.deleted ${c.id}`,
        `noteTarget.updated ${noteTarget.id}`,
        `taskTarget.updated ${taskTarget.id}`,
        `opportunity.updated ${opportunity.id}`,
      ].sort(),
    );
    const atDepth1 = (await t.http.get(`/people/${a.id}?depth=1`)).body.data.person;
    expect(atDepth1.noteTargets.map((n: { id: string }) => n.id)).toEqual([noteTarget.id]);
  });

  it('dryRun answers the same survivor and writes nothing; conflictPriorityIndex picks the survivor', async () => {
    const { a, b, c, noteTarget } = await fixture();
    const before = await audit([a.id, b.id, c.id, noteTarget.id]);
    const dry = await t.http.patch('/people/merge?depth=0', {
      ids: [b.id, a.id, c.id],
      conflictPriorityIndex: 1,
      dryRun: true,
    });
    expect(dry.status).toBe(200);
    expect(dry.body.data.mergePerson).toMatchObject({ id: a.id, city: 'Paris' });
    expect(await audit([a.id, b.id, c.id, noteTarget.id])).toEqual(before);
    expect((await t.http.get(`/people/${b.id}?depth=0`)).body.data.person.city).toBe('Paris');
    expect((await t.http.get(`/noteTargets/${noteTarget.id}?depth=0`)).body.data.noteTarget.personId).toBe(b.id);
    const real = await t.http.patch('/people/merge?depth=0', { ids: [b.id, a.id, c.id], conflictPriorityIndex: 1 });
    const { updatedAt: _d, ...dryRecord } = dry.body.data.mergePerson;
    const { updatedAt: _r, ...realRecord } = real.body.data.mergePerson;
    expect(realRecord).toEqual(dryRecord);
  });

  it('a unique conflict the merge would create: 400, nothing written', async () => {
    // two views, each with a field for the same column: re-pointing the second view's field to the
    // survivor would give the survivor two fields for one column (viewFields are unique on both)
    const [v1, v2] = [await createRecord(t.http, 'views'), await createRecord(t.http, 'views')];
    const fieldMetadataId = randomUUID();
    const fields = (
      await t.http.post('/batch/viewFields?depth=0', [
        { fieldMetadataId, viewId: v1.id },
        { fieldMetadataId, viewId: v2.id },
      ])
    ).body.data.createViewFields;
    const before = await audit([v1.id, v2.id, ...fields.map((f: { id: string }) => f.id)]);
    const res = await t.http.patch('/views/merge?depth=0', { ids: [v1.id, v2.id] });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([
      `A duplicate entry was detected: fieldMetadataId and viewId (${fieldMetadataId}, ${v1.id}) are already used together by another record`,
    ]);
    expect((await t.http.get(`/views/${v2.id}?depth=0`)).body.data.view.deletedAt).toBeNull();
    expect((await t.http.get(`/viewFields/${fields[1].id}?depth=0`)).body.data.viewField.viewId).toBe(v2.id);
    expect(await audit([v1.id, v2.id, ...fields.map((f: { id: string }) => f.id)])).toEqual(before);
  });

  it('bad requests: 400 for the ids or the index, 404 for an unknown or soft-deleted record, nothing written', async () => {
    const { a, b } = await fixture();
    const cases: [unknown, number, RegExp][] = [
      [{ ids: [a.id] }, 400, /^ids must be an array of 2 to 9 record ids$/],
      [{ ids: Array.from({ length: 10 }, () => randomUUID()) }, 400, /2 to 9/],
      [{ ids: [a.id, a.id.toUpperCase()] }, 400, /^ids must be distinct$/],
      [{ ids: [a.id, 'nope'] }, 400, /^\[1\] 'nope' is not a valid UUID$/],
      [{ ids: [a.id, b.id], conflictPriorityIndex: 2 }, 400, /^conflictPriorityIndex must be an integer from 0 to 1$/],
      [{ ids: [a.id, b.id], dryRun: 'yes' }, 400, /^dryRun must be a boolean$/],
      [{ ids: [a.id, b.id], extra: 1 }, 400, /^property extra should not exist$/],
      [{ ids: [a.id, randomUUID()] }, 404, /^Record not found: /],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.http.patch('/people/merge', body);
      expect({ body, status: res.status }).toEqual({ body, status });
      expect(res.body.messages[0]).toMatch(message);
    }
    await t.http.delete(`/people/${b.id}?soft_delete=true`);
    expect((await t.http.patch('/people/merge', { ids: [a.id, b.id] })).status).toBe(404);
    expect((await t.http.get(`/people/${a.id}?depth=0`)).body.data.person.city).toBe('');
  });
});
