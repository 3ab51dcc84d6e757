import { Client } from 'pg';
import { ChangeFeed } from '../../src/core/changes/change-feed.service';
import { ChangeRetention } from '../../src/core/changes/change-retention';
import type { Json } from '../support/http';
import { badRequest, forbidden, keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The change feed (API.md section 15): head, pages, limits, errors, retention (410), the
 * collections parameter and access control (section 14).
 */
describe('change feed: GET /changes/head and GET /changes', () => {
  let t: TestApp;
  const head = async () => (await t.http.get('/changes/head')).body.data.token as string;
  /** Every change after `since`, following endCursor with pages of `limit`. */
  const follow = async (since: string, limit = 200, http = t.http, extra = '') => {
    const all: Json[] = [];
    for (let i = 0; i < 1000; i++) {
      const res = await http.get(`/changes?since=${since}&limit=${limit}${extra}`);
      expect(res.status).toBe(200);
      all.push(...res.body.data.changes);
      since = res.body.pageInfo.endCursor;
      if (!res.body.pageInfo.hasNextPage) return { changes: all, end: since };
    }
    throw new Error('no end');
  };

  beforeAll(async () => {
    t = await startTestApp({ CHANGES_TRIM_INTERVAL_MS: '3600000' });
  });
  afterAll(async () => t?.close());

  it('gives every event of a record after the head, in order, with the record after the change', async () => {
    const from = await head();
    const created = (
      await t.http.post('/people?depth=0', { name: { firstName: 'Ada', lastName: 'Feed' }, city: 'Paris' })
    ).body.data.createPerson;
    await t.http.patch(`/people/${created.id}`, { city: 'London' });
    await t.http.delete(`/people/${created.id}?soft_delete=true`);
    await t.http.patch(`/people/${created.id}/restore`);
    await t.http.delete(`/people/${created.id}`);
    const { changes } = await follow(from);
    expect(changes.map((c: Json) => c.eventName)).toEqual([
      'person.created',
      'person.updated',
      'person.deleted',
      'person.restored',
      'person.destroyed',
    ]);
    for (const c of changes) {
      expect(c).toMatchObject({ collection: 'people', recordId: created.id });
      expect(typeof c.id).toBe('string');
      expect(c.apiKeyId).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(c.occurredAt).toISOString()).toBe(c.occurredAt);
    }
    expect(changes[0].record).toMatchObject({ id: created.id, city: 'Paris', name: { firstName: 'Ada' } });
    expect(changes[1].record.city).toBe('London');
    expect(changes[1].updatedFields).toEqual(['city']);
    expect(changes[0]).not.toHaveProperty('updatedFields');
    expect(changes[2].record.deletedAt).not.toBeNull();
    expect(changes[4].record).toBeNull();
    // the feed does not depend on the audit log
    await t.db.query(`DELETE FROM "auditLog"`);
    expect((await follow(from)).changes.map((c: Json) => c.id)).toEqual(changes.map((c: Json) => c.id));
  });

  it('reads the head for the metrics without handing out positions: only a read of the feed sequences new changes', async () => {
    const feed = t.app.get(ChangeFeed);
    const before = await feed.headPosition();
    await t.http.post('/people?depth=0', { name: { firstName: 'Ada', lastName: 'Gauge' } });
    // the change is committed but has no position yet: the gauge's read leaves it so
    expect(await feed.sequencedHead()).toBe(before);
    expect(await feed.sequencedHead()).toBe(before);
    const after = await feed.headPosition(); // a reader's head sequences it
    expect(after).toBeGreaterThan(before);
    expect(await feed.sequencedHead()).toBe(after);
  });

  it('pages with limit, endCursor and hasNextPage: every change exactly once, none after the end', async () => {
    const from = await head();
    const batch = await t.http.post(
      '/batch/companies?depth=0',
      [1, 2, 3, 4, 5, 6, 7].map((i) => ({ name: `Pager ${i}` })),
    );
    expect(batch.status).toBe(201);
    await t.http.patch('/companies?filter=name[startsWith]:Pager&depth=0', { employees: 3 });
    const paged = await follow(from, 3);
    expect(paged.changes).toHaveLength(14);
    expect(new Set(paged.changes.map((c: Json) => c.id)).size).toBe(14);
    const whole = await follow(from, 1000);
    expect(whole.changes.map((c: Json) => c.id)).toEqual(paged.changes.map((c: Json) => c.id));
    const empty = await t.http.get(`/changes?since=${paged.end}`);
    expect(empty.body).toEqual({ data: { changes: [] }, pageInfo: { hasNextPage: false, endCursor: paged.end } });
    const first = await t.http.get(`/changes?since=${from}&limit=3`);
    expect(first.body.pageInfo.hasNextPage).toBe(true);
    expect(first.body.pageInfo.endCursor).toBe(first.body.data.changes[2].id);
  });

  it('filters by collections and refuses bad parameters with the words of section 15', async () => {
    const from = await head();
    await t.http.post('/companies?depth=0', { name: 'Only company' });
    await t.http.post('/people?depth=0', { name: { firstName: 'Only', lastName: 'Person' } });
    const companies = await follow(from, 200, t.http, '&collections=companies');
    expect(companies.changes.map((c: Json) => c.collection)).toEqual(['companies']);
    const both = await follow(from, 200, t.http, '&collections=companies,people');
    expect(both.changes.map((c: Json) => c.collection)).toEqual(['companies', 'people']);
    const cases: [string, Json][] = [
      ['/changes', badRequest('since is required (GET /changes/head gives the current position)')],
      ['/changes?since=abc', badRequest('Invalid since token')],
      [`/changes?since=${from}x`, badRequest('Invalid since token')],
      [`/changes?since=${from}&limit=0`, badRequest("limit '0' is invalid: an integer from 1 to 1000")],
      [`/changes?since=${from}&limit=1001`, badRequest("limit '1001' is invalid: an integer from 1 to 1000")],
      [`/changes?since=${from}&collections=nope`, badRequest("collections: 'nope' is not a collection; eg: companies")],
      [
        `/changes?since=${from}&collections=person`,
        badRequest("collections: 'person' is not a collection. Did you mean 'people'?"),
      ],
      [
        `/changes?since=${from}&order_by=x`,
        badRequest("Unknown query parameter 'order_by'; this route accepts since, limit, collections"),
      ],
      ['/changes/stream', badRequest('since is required (GET /changes/head gives the current position)')],
    ];
    for (const [path, body] of cases) {
      const res = await t.http.get(path);
      expect({ path, body: res.body }).toEqual({ path, body });
    }
    expect((await t.http.post('/changes', {})).body).toEqual(
      badRequest("POST is not supported on '/rest/changes'; it accepts GET"),
    );
    expect((await t.http.get('/changes/tail')).body).toEqual(
      badRequest(
        "Query path '/rest/changes/tail' invalid. Valid paths: /rest/changes/head, /rest/changes, /rest/changes/stream",
      ),
    );
  });

  it('answers 410 GONE for a token older than the retention, and keeps the newer entries', async () => {
    const old = await head();
    await t.http.post('/companies?depth=0', { name: 'Expiring' });
    const recent = await head();
    await t.http.post('/companies?depth=0', { name: 'Kept' });
    await t.db.query(
      `UPDATE "_changes" SET "occurredAt" = now() - interval '8 days' WHERE "record"->>'name' = 'Expiring'`,
    );
    expect(await t.app.get(ChangeRetention).trim()).toBe(1);
    const gone = await t.http.get(`/changes?since=${old}`);
    expect(gone.status).toBe(410);
    expect(gone.body).toMatchObject({ statusCode: 410, error: 'GONE' });
    expect((await t.http.get(`/changes/stream?since=${old}`)).status).toBe(410);
    const kept = await follow(recent);
    expect(kept.changes.map((c: Json) => c.record.name)).toEqual(['Kept']);
  });

  it('shows a key only its readable collections, without hidden fields, inside its row filter', async () => {
    const key = await keyWithRole(t, [
      { collection: 'people', actions: ['read'], hiddenFields: ['jobTitle'], filter: 'city[eq]:Paris' },
      { collection: 'opportunities', actions: ['read'] },
    ]);
    const from = await head();
    const paris = (await t.http.post('/people?depth=0', { name: { firstName: 'In' }, city: 'Paris', jobTitle: 'CEO' }))
      .body.data.createPerson;
    const rome = (await t.http.post('/people?depth=0', { name: { firstName: 'Out' }, city: 'Rome', jobTitle: 'CTO' }))
      .body.data.createPerson;
    await t.http.post('/companies?depth=0', { name: 'Closed to the key' });
    await t.http.patch(`/people/${paris.id}`, { jobTitle: 'Chair', city: 'Lyon' }); // leaves the filter
    await t.http.patch(`/people/${rome.id}`, { city: 'Paris' }); // enters it
    await t.http.delete(`/people/${rome.id}`); // destroyed: judged on the record before
    const seen = (await follow(from, 2, key.http)).changes;
    expect(seen.map((c: Json) => [c.eventName, c.recordId])).toEqual([
      ['person.created', paris.id],
      ['person.updated', rome.id],
      ['person.destroyed', rome.id],
    ]);
    expect(seen[0].record).not.toHaveProperty('jobTitle');
    expect(seen[0].record.city).toBe('Paris');
    expect(seen[1].updatedFields).toEqual(['city']);
    expect(seen[2].record).toBeNull();
    const closed = await key.http.get(`/changes?since=${from}&collections=companies`);
    expect(closed.body).toEqual(forbidden(`API key '${key.name}' may not read companies`));
    const admin = (await follow(from)).changes;
    expect(admin.length).toBeGreaterThan(seen.length);
  });

  it('gives the token of an export snapshot: the snapshot plus the changes after the token equal the table', async () => {
    const names = ['Snap A', 'Snap B', 'Snap C'];
    const ids: string[] = [];
    for (const name of names) ids.push((await t.http.post('/companies?depth=0', { name })).body.data.createCompany.id);
    const list = `SELECT "id", "name" FROM "company" WHERE "name" LIKE 'Snap%' AND "deletedAt" IS NULL`;
    // the export: REPEATABLE READ, the snapshot read first (on PGlite, one connection: before the writes)
    let snapshot = '';
    let exported: { id: string; name: string }[] = [];
    const writes = async () => {
      await t.http.patch(`/companies/${ids[0]}`, { name: 'Snap A2' });
      await t.http.delete(`/companies/${ids[1]}`);
      await t.http.post('/companies?depth=0', { name: 'Snap D' });
      await t.http.get('/changes/head'); // positions for these, before the token is asked for
    };
    if (t.database.url) {
      const client = new Client({ connectionString: t.database.url });
      await client.connect();
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      snapshot = (await client.query('SELECT pg_current_snapshot()::text AS s')).rows[0].s;
      await writes(); // committed after the snapshot, while the export reads
      exported = (await client.query(list)).rows;
      await client.query('COMMIT');
      await client.end();
    } else {
      await t.db.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        snapshot = (await tx.query<{ s: string }>('SELECT pg_current_snapshot()::text AS s'))[0].s;
        exported = await tx.query(list);
      });
      await writes();
    }
    expect(exported.map((r) => r.name).sort()).toEqual(names);
    const token = await t.app.get(ChangeFeed).tokenOfSnapshot(snapshot);
    const rows = new Map(exported.map((r) => [r.id, r.name]));
    for (const c of (await follow(token)).changes) {
      if (c.collection !== 'companies') continue;
      if (c.eventName === 'company.destroyed') rows.delete(c.recordId);
      else rows.set(c.recordId, c.record.name);
    }
    const live = await t.db.query<{ id: string; name: string }>(list);
    expect(new Map([...rows].filter(([, name]) => name.startsWith('Snap')))).toEqual(
      new Map(live.map((r) => [r.id, r.name])),
    );
  });
});
