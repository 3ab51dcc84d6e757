import { recordStatements } from '../support/statements';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A single-record write is one statement (the change with its audit, timeline and outbox rows
 * as data-modifying CTEs) sent without BEGIN/COMMIT: one round trip to the database. What needs
 * a transaction (an If-Match check, an idempotency key) takes one, with its BEGIN and COMMIT.
 */
describe('single-record writes: statements and round trips per request', () => {
  let t: TestApp;
  let stmts: ReturnType<typeof recordStatements>;
  beforeAll(async () => {
    // no dispatcher polling the outbox in the background: only the requests' statements are seen
    t = await startTestApp({ WEBHOOK_DISPATCH: 'false' });
    stmts = recordStatements(t.db);
  });
  afterAll(async () => t?.close());

  const auditRows = async (id: string) =>
    (await t.db.query(`SELECT name FROM "auditLog" WHERE "recordId" = $1 ORDER BY "createdAt", name`, [id])).map(
      (r) => r.name,
    );
  const timelineRows = async (id: string) =>
    (await t.db.query(`SELECT count(*)::int AS n FROM "timelineActivity" WHERE "personId" = $1`, [id]))[0].n;

  it('a single write is sent as a named prepared statement once its text is hot (third time), the same name after; bulk writes never', async () => {
    const post = (i: number) => stmts.during(() => t.http.post('/companies?depth=0', { name: `Prepared ${i}` }));
    const creates: Awaited<ReturnType<typeof post>>[] = [];
    for (let i = 0; i < 5; i++) creates.push(await post(i));
    for (const run of creates) expect(run.result.status).toBe(201);
    const names = creates.map((run) => run.names[0]);
    expect(creates.every((run) => run.statements.length === 1 && run.statements[0] === creates[0].statements[0])).toBe(
      true,
    );
    expect(names.slice(0, 2)).toEqual([undefined, undefined]);
    expect(names[2]).toMatch(/^w_[0-9a-f]{16}$/);
    expect(names.slice(3)).toEqual([names[2], names[2]]);
    // the prepared statement answers as the unnamed one did: the record, its events
    const last = creates[4].result.body.data.createCompany;
    expect(last.name).toBe('Prepared 4');
    expect((await t.db.query(`SELECT count(*)::int AS n FROM "auditLog" WHERE "recordId" = $1`, [last.id]))[0].n).toBe(
      1,
    );

    const filter = encodeURIComponent('name[like]:"Prepared %"');
    for (let i = 0; i < 4; i++) {
      const bulk = await stmts.during(() => t.http.patch(`/companies?depth=0&filter=${filter}`, { employees: i }));
      expect(bulk.result.status).toBe(200);
      expect(bulk.names.every((name) => name === undefined)).toBe(true);
    }
  });

  it('create, update, soft delete, restore and hard delete one: one statement each, events included', async () => {
    const created = await stmts.during(() => t.http.post('/people?depth=0', { city: 'Oslo', jobTitle: 'Clerk' }));
    expect(created.result.status).toBe(201);
    expect(created.statements).toHaveLength(1);
    expect(created.statements[0]).toMatch(/^WITH u AS \(INSERT INTO "person"/);
    const id = created.result.body.data.createPerson.id;

    const updated = await stmts.during(() => t.http.patch(`/people/${id}?depth=0`, { city: 'Bergen' }));
    expect(updated.result.status).toBe(200);
    expect(updated.result.body.data.updatePerson.city).toBe('Bergen');
    expect(updated.statements).toHaveLength(1);

    const unchanged = await stmts.during(() => t.http.patch(`/people/${id}?depth=0`, { city: 'Bergen' }));
    expect(unchanged.result.status).toBe(200);
    expect(unchanged.statements).toHaveLength(1);

    const deleted = await stmts.during(() => t.http.delete(`/people/${id}?soft_delete=true`));
    expect(deleted.result.status).toBe(200);
    expect(deleted.statements).toHaveLength(1);

    const restored = await stmts.during(() => t.http.patch(`/people/${id}/restore?depth=0`));
    expect(restored.result.status).toBe(200);
    expect(restored.result.body.data.restorePerson.deletedAt).toBeNull();
    expect(restored.statements).toHaveLength(1);

    const again = await stmts.during(() => t.http.patch(`/people/${id}/restore?depth=0`));
    expect(again.result.status).toBe(200);
    expect(again.statements).toHaveLength(1);

    expect(await auditRows(id)).toEqual(['person.created', 'person.updated', 'person.deleted', 'person.restored']);
    expect(await timelineRows(id)).toBe(4);
    const destroyed = await stmts.during(() => t.http.delete(`/people/${id}`));
    expect(destroyed.result.status).toBe(200);
    expect(destroyed.statements).toHaveLength(1);
    expect(await auditRows(id)).toEqual([
      'person.created',
      'person.updated',
      'person.deleted',
      'person.restored',
      'person.destroyed',
    ]);
    for (const run of [created, updated, unchanged, deleted, restored, again, destroyed])
      expect(run.statements).not.toContain('BEGIN');
  });

  it('the event rows of a single write hold the same record as the answer', async () => {
    const created = await t.http.post('/people?depth=0', {
      city: 'Tromsø',
      name: { firstName: 'Åse', lastName: 'Berg' },
    });
    const record = created.body.data.createPerson;
    const [audit] = await t.db.query(`SELECT properties FROM "auditLog" WHERE "recordId" = $1`, [record.id]);
    expect(audit.properties).toEqual({ after: record });
    const updated = (await t.http.patch(`/people/${record.id}?depth=0`, { name: { firstName: 'Ada' } })).body.data
      .updatePerson;
    const [change] = await t.db.query(
      `SELECT properties FROM "auditLog" WHERE "recordId" = $1 AND name = 'person.updated'`,
      [record.id],
    );
    expect(change.properties).toEqual({
      before: record,
      after: updated,
      diff: { name: { before: record.name, after: updated.name } },
    });
  });

  it('a missing record: 404 from the one statement, nothing written', async () => {
    const missing = '00000000-0000-4000-8000-000000000001';
    for (const request of [
      () => t.http.patch(`/people/${missing}`, { city: 'X' }),
      () => t.http.delete(`/people/${missing}?soft_delete=true`),
      () => t.http.delete(`/people/${missing}`),
      () => t.http.patch(`/people/${missing}/restore`),
    ]) {
      const run = await stmts.during(request);
      expect(run.result.status).toBe(404);
      expect(run.statements).toHaveLength(1);
    }
    expect(await auditRows(missing)).toEqual([]);
  });

  it('If-Match and Idempotency-Key take a transaction: BEGIN, the statements, COMMIT', async () => {
    const created = await t.http.post('/people?depth=0', { city: 'Oslo' });
    const id = created.body.data.createPerson.id;
    const etag = created.headers.get('etag');
    const guarded = await stmts.during(() =>
      t.http.patch(`/people/${id}?depth=0`, { city: 'Kiel' }, { headers: { 'If-Match': etag! } }),
    );
    expect(guarded.result.status).toBe(200);
    expect(guarded.statements[0]).toBe('BEGIN');
    expect(guarded.statements[guarded.statements.length - 1]).toBe('COMMIT');
    const stale = await stmts.during(() =>
      t.http.patch(`/people/${id}?depth=0`, { city: 'Riga' }, { headers: { 'If-Match': etag! } }),
    );
    expect(stale.result.status).toBe(412);
    expect(stale.statements[stale.statements.length - 1]).toBe('ROLLBACK');
    const keyed = await stmts.during(() =>
      t.http.post('/people?depth=0', { city: 'Pisa' }, { headers: { 'Idempotency-Key': `k-${Date.now()}` } }),
    );
    expect(keyed.result.status).toBe(201);
    expect(keyed.statements[0]).toBe('BEGIN');
  });
});
