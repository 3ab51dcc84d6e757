import { INestApplication } from '@nestjs/common';
import { createApp } from '../../src/app.factory';
import { createApiKey } from '../../src/collections/api-keys/first-api-key';
import { IdempotencyStore } from '../../src/core/idempotency/idempotency.store';
import { Http } from '../support/http';
import { postgresForSuite } from '../support/embedded-postgres';
import { startTestApp, TestApp, TEST_ENCRYPTION_KEY } from '../support/test-app';

let keys = 0;
/** A new Idempotency-Key. */
const key = () => `key-${Date.now()}-${++keys}`;
/** Rows of `table` matching `where`. */
const rowsWhere = async (t: TestApp, table: string, where: string, values: unknown[]) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}" WHERE ${where}`, values))[0].n;

/** Idempotency-Key on create one / create many: a retry replays the first answer and writes nothing. */
describe('idempotent creates', () => {
  let t: TestApp;
  const count = (table: string, where: string, values: unknown[]) => rowsWhere(t, table, where, values);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('replays create one with the same key and body: same status and bytes, one record, one event', async () => {
    const k = key();
    const first = await t.http.post('/companies', { name: 'Idem One' }, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await t.http.post('/companies', { name: 'Idem One' }, { headers: { 'idempotency-key': k } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(await count('company', '"name" = $1', ['Idem One'])).toBe(1);
    const id = first.body.data.createCompany.id;
    expect(await count('auditLog', '"recordId" = $1', [id])).toBe(1);
  });

  it('refuses the same key with another body or another route (422) and writes nothing', async () => {
    const k = key();
    expect((await t.http.post('/companies', { name: 'Idem Two' }, { headers: { 'idempotency-key': k } })).status).toBe(
      201,
    );
    const other = await t.http.post('/companies', { name: 'Idem Two bis' }, { headers: { 'idempotency-key': k } });
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      statusCode: 422,
      error: 'UnprocessableEntityException',
      messages: [expect.stringContaining('Idempotency-Key was already used')],
    });
    const batch = await t.http.post('/batch/companies', [{ name: 'Idem Two' }], { headers: { 'idempotency-key': k } });
    expect(batch.status).toBe(422);
    const otherQuery = await t.http.post(
      '/companies?depth=0',
      { name: 'Idem Two' },
      { headers: { 'idempotency-key': k } },
    );
    expect(otherQuery.status).toBe(422);
    expect(await count('company', '"name" LIKE $1', ['Idem Two%'])).toBe(1);
  });

  it('replays a batch: same ids, the records written once', async () => {
    const k = key();
    const body = [{ name: 'Idem Batch 1' }, { name: 'Idem Batch 2' }, { name: 'Idem Batch 3' }];
    const first = await t.http.post('/batch/companies', body, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(201);
    const again = await t.http.post('/batch/companies', body, { headers: { 'idempotency-key': k } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.createCompanies.map((c: { id: string }) => c.id)).toEqual(
      first.body.data.createCompanies.map((c: { id: string }) => c.id),
    );
    expect(await count('company', '"name" LIKE $1', ['Idem Batch %'])).toBe(3);
  });

  it('concurrent retries with one key create one record; all get the same answer', async () => {
    const k = key();
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.http.post(
          '/people',
          { name: { firstName: 'Idem', lastName: 'Race' } },
          { headers: { 'idempotency-key': k } },
        ),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    expect(await count('person', `"nameLastName" = $1`, ['Race'])).toBe(1);
  });

  it('scopes keys to the API key: another key may use the same value', async () => {
    const k = key();
    const { token } = await createApiKey(t.app, 'second', new Date(Date.now() + 3600_000));
    const other = new Http(t.baseUrl, token);
    expect(
      (await t.http.post('/companies', { name: 'Idem Scope' }, { headers: { 'idempotency-key': k } })).status,
    ).toBe(201);
    const second = await other.post('/companies', { name: 'Idem Scope' }, { headers: { 'idempotency-key': k } });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('company', '"name" = $1', ['Idem Scope'])).toBe(2);
  });

  it('a request that failed stores nothing, so the same key can be retried', async () => {
    const k = key();
    const domain = { primaryLinkUrl: `https://idem-${Date.now()}.example`, primaryLinkLabel: '', secondaryLinks: [] };
    const taken = await t.http.post('/companies', { name: 'Holder', domainName: domain });
    expect(taken.status).toBe(201);
    const refused = await t.http.post(
      '/companies',
      { name: 'Idem Fail', domainName: domain },
      { headers: { 'idempotency-key': k } },
    );
    expect(refused.status).toBe(400);
    expect(await count('idempotencyKey', '"key" = $1', [k])).toBe(0);
    expect((await t.http.delete(`/companies/${taken.body.data.createCompany.id}`)).status).toBe(200);
    const retried = await t.http.post(
      '/companies',
      { name: 'Idem Fail', domainName: domain },
      { headers: { 'idempotency-key': k } },
    );
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });

  it('forgets a key after 24 hours', async () => {
    const k = key();
    expect((await t.http.post('/companies', { name: 'Idem Old' }, { headers: { 'idempotency-key': k } })).status).toBe(
      201,
    );
    await t.db.query(`UPDATE "idempotencyKey" SET "createdAt" = now() - interval '25 hours' WHERE "key" = $1`, [k]);
    const fresh = await t.http.post('/companies', { name: 'Idem New' }, { headers: { 'idempotency-key': k } });
    expect(fresh.status).toBe(201);
    expect(fresh.headers.get('idempotent-replayed')).toBeNull();
    const replay = await t.http.post('/companies', { name: 'Idem New' }, { headers: { 'idempotency-key': k } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.text).toBe(fresh.text);
  });

  it('purges keys older than 24 hours and keeps the others', async () => {
    const [old, recent] = [key(), key()];
    for (const k of [old, recent]) {
      expect(
        (await t.http.post('/companies', { name: `Idem Purge ${k}` }, { headers: { 'idempotency-key': k } })).status,
      ).toBe(201);
    }
    await t.db.query(`UPDATE "idempotencyKey" SET "createdAt" = now() - interval '25 hours' WHERE "key" = $1`, [old]);
    expect(await t.app.get(IdempotencyStore).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await count('idempotencyKey', '"key" = $1', [old])).toBe(0);
    expect(await count('idempotencyKey', '"key" = $1', [recent])).toBe(1);
  });

  it('refuses a malformed key with 400 and writes nothing', async () => {
    for (const bad of ['x'.repeat(256), 'has space', 'é']) {
      const res = await t.http.post('/companies', { name: 'Idem Bad' }, { headers: { 'idempotency-key': bad } });
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual([expect.stringContaining('Idempotency-Key')]);
    }
    expect(await count('company', '"name" = $1', ['Idem Bad'])).toBe(0);
  });
});

/** ETag on reads and writes; If-Match on PATCH and DELETE; without it, field-by-field last write wins. */
describe('optimistic concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const company = async (name: string) => {
    const res = await t.http.post('/companies', { name, employees: 10 });
    expect(res.status).toBe(201);
    return { id: res.body.data.createCompany.id as string, etag: res.headers.get('etag')! };
  };

  it('returns one ETag per version, whatever the representation', async () => {
    const { id, etag } = await company('Etag Shape');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const plain = await t.http.get(`/companies/${id}`);
    expect(plain.headers.get('etag')).toBe(etag);
    expect((await t.http.get(`/companies/${id}?depth=1`)).headers.get('etag')).toBe(etag);
    expect((await t.http.get(`/companies/${id}?fields=id,name`)).headers.get('etag')).toBe(etag);
    const updated = await t.http.patch(`/companies/${id}`, { employees: 11 });
    expect(updated.headers.get('etag')).not.toBe(etag);
    expect((await t.http.get(`/companies/${id}`)).headers.get('etag')).toBe(updated.headers.get('etag'));
  });

  it('PATCH with the current ETag succeeds; with a stale one: 412 and nothing changes', async () => {
    const { id, etag } = await company('Etag Patch');
    const ok = await t.http.patch(`/companies/${id}`, { name: 'Etag Patch 2' }, { headers: { 'if-match': etag } });
    expect(ok.status).toBe(200);
    const stale = await t.http.patch(`/companies/${id}`, { name: 'Etag Patch 3' }, { headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(stale.body).toEqual({
      statusCode: 412,
      error: 'PreconditionFailedException',
      messages: [expect.stringContaining('has changed since it was read')],
    });
    expect((await t.http.get(`/companies/${id}`)).body.data.company.name).toBe('Etag Patch 2');
    // an empty PATCH is checked too
    expect((await t.http.patch(`/companies/${id}`, {}, { headers: { 'if-match': etag } })).status).toBe(412);
    // a list of tags matches when one of them is current; * matches any existing record
    const current = ok.headers.get('etag')!;
    expect(
      (await t.http.patch(`/companies/${id}`, { employees: 3 }, { headers: { 'if-match': `${etag}, ${current}` } }))
        .status,
    ).toBe(200);
    expect((await t.http.patch(`/companies/${id}`, { employees: 4 }, { headers: { 'if-match': '*' } })).status).toBe(
      200,
    );
  });

  it('compares strongly: a weak tag never matches; a malformed header is a 400', async () => {
    const { id, etag } = await company('Etag Weak');
    expect(
      (await t.http.patch(`/companies/${id}`, { employees: 1 }, { headers: { 'if-match': `W/${etag}` } })).status,
    ).toBe(412);
    const malformed = await t.http.patch(
      `/companies/${id}`,
      { employees: 1 },
      { headers: { 'if-match': 'not-quoted' } },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.messages).toEqual([expect.stringContaining('If-Match')]);
    expect((await t.http.get(`/companies/${id}`)).body.data.company.employees).toBe(10);
  });

  it('DELETE with a stale ETag: 412 and the record stays; with the current one it goes (hard and soft)', async () => {
    const { id, etag } = await company('Etag Delete');
    const changed = await t.http.patch(`/companies/${id}`, { employees: 12 });
    expect((await t.http.delete(`/companies/${id}`, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await t.http.get(`/companies/${id}`)).status).toBe(200);
    const soft = await t.http.delete(`/companies/${id}?soft_delete=true`, {
      headers: { 'if-match': changed.headers.get('etag')! },
    });
    expect(soft.status).toBe(200);
    expect((await t.http.get(`/companies/${id}`)).status).toBe(404);
    const other = await company('Etag Delete Hard');
    expect((await t.http.delete(`/companies/${other.id}`, { headers: { 'if-match': other.etag } })).status).toBe(200);
    expect((await t.http.delete(`/companies/${other.id}`, { headers: { 'if-match': other.etag } })).status).toBe(404);
  });

  it('two writers with the same If-Match: exactly one wins', async () => {
    const { id, etag } = await company('Etag Race');
    const results = await Promise.all(
      ['Etag Race A', 'Etag Race B', 'Etag Race C', 'Etag Race D'].map((name) =>
        t.http.patch(`/companies/${id}`, { name }, { headers: { 'if-match': etag } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = results.find((r) => r.status === 200)!.body.data.updateCompany.name;
    expect((await t.http.get(`/companies/${id}`)).body.data.company.name).toBe(winner);
  });

  it('without If-Match, concurrent PATCHes of different fields both land (a PATCH changes only its fields)', async () => {
    const { id } = await company('Etag Fields');
    const updates = [{ employees: 77 }, { name: 'Etag Fields 2' }, { idealCustomerProfile: true }];
    const results = await Promise.all(updates.map((body) => t.http.patch(`/companies/${id}`, body)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const { company: final } = (await t.http.get(`/companies/${id}`)).body.data;
    expect(final).toMatchObject({ employees: 77, name: 'Etag Fields 2', idealCustomerProfile: true });
  });
});

/** Across instances: PostgreSQL only (TEST_DATABASE_URL, or a server of this file's own). */
const ownPostgres = postgresForSuite('idempotency-across-instances');
ownPostgres.describe('idempotent creates across instances', () => {
  let t: TestApp;
  const count = (table: string, where: string, values: unknown[]) => rowsWhere(t, table, where, values);

  beforeAll(async () => {
    await ownPostgres.beforeAll();
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await ownPostgres.afterAll();
  });

  it('holds across instances and restarts (keys live in PostgreSQL)', async () => {
    const k = key();
    const first = await t.http.post('/companies', { name: 'Idem Instances' }, { headers: { 'idempotency-key': k } });
    expect(first.status).toBe(201);
    let other: INestApplication | undefined;
    try {
      ({ app: other } = await createApp({
        env: {
          ...t.database.env,
          METRICS_PORT: '0',
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          BOOTSTRAP_API_KEY: 'false',
          LOG_LEVEL: 'silent',
          WEBHOOK_DISPATCH: 'false',
        },
      }));
      await other.listen(0, '127.0.0.1');
      const url = `${(await other.getUrl()).replace('[::1]', '127.0.0.1')}/rest`;
      const replay = await new Http(url, t.token).post(
        '/companies',
        { name: 'Idem Instances' },
        { headers: { 'idempotency-key': k } },
      );
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(replay.text).toBe(first.text);
    } finally {
      await other?.close();
    }
    expect(await count('company', '"name" = $1', ['Idem Instances'])).toBe(1);
  });
});
