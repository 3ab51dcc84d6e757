import { randomUUID } from 'node:crypto';
import { positionOf } from '../../src/core/changes/change-tokens';
import type { Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const WRITERS = 32;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The guarantees of the feed (API.md section 15) under 32 concurrent writers (creates, updates,
 * upserts, bulk updates, soft and hard deletes, restores, merges, writes rolled back, and slow
 * transactions that commit after later ones) while a reader follows with pages of 7: every
 * acknowledged change exactly once (against the audit log, written by the same statements), none
 * rolled back, positions never behind an endCursor already handed out, the feed replayed
 * gives the final tables (each record's changes in commit order), and an export taken mid-run
 * followed by the feed after its X-Changes-Token gives the final table too.
 */
describe('change feed properties under concurrent writers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DB_POOL_SIZE: '40' });
  });
  afterAll(async () => t?.close());

  const ok = async (promise: Promise<{ status: number; text: string }>, status = [200, 201]) => {
    const res = await promise;
    if (!status.includes(res.status)) throw new Error(`${res.status} ${res.text}`);
    return res as Json;
  };

  async function writer(w: number, shared: string): Promise<void> {
    const city = `W${w}`;
    const created = await ok(
      t.http.post(
        '/batch/people?depth=0',
        [0, 1, 2].map((i) => ({ name: { firstName: `P${w}-${i}` }, city })),
      ),
    );
    const [a, b, c] = created.body.data.createPeople.map((p: Json) => p.id);
    // records written once and never again, all along the run: a change lost between an export
    // and the feed after its token would show in the final table
    const marker = () => ok(t.http.post('/people?depth=0', { city: `M${w}` }));
    await marker();
    await ok(t.http.patch(`/people/${a}`, { jobTitle: 'first' }));
    await ok(t.http.patch(`/companies/${shared}`, { name: `shared ${w} a` }));
    const email = `w${w}@feed.test`;
    const upserted = await ok(t.http.post('/people?upsert=true&depth=0', { emails: { primaryEmail: email }, city }));
    await ok(t.http.post('/people?upsert=true&depth=0', { emails: { primaryEmail: email }, jobTitle: 'upserted' }));
    // rolled back: the second record breaks the unique email after the first was inserted
    const refused = await t.http.post('/batch/people?depth=0', [
      { name: { firstName: 'ROLLBACK' }, city: 'ROLLBACK' },
      { emails: { primaryEmail: email }, city: 'ROLLBACK' },
    ]);
    expect(refused.status).toBe(400);
    await marker();
    await ok(t.http.patch(`/people?filter=city[eq]:${city}&depth=0`, { jobTitle: 'bulk' }));
    await ok(t.http.delete(`/people/${b}?soft_delete=true`));
    await marker();
    await ok(t.http.patch(`/people/${b}/restore`));
    await ok(t.http.patch('/people/merge?depth=0', { ids: [c, upserted.body.data.createPerson.id] }));
    await ok(t.http.patch(`/companies/${shared}`, { name: `shared ${w} b` }));
    await marker();
    await ok(t.http.delete(`/people/${a}`));
  }

  /** A transaction that writes its entry early and commits (or rolls back) after others have been read. */
  async function slow(commit: boolean): Promise<string> {
    const id = randomUUID();
    await t.db
      .transaction(async (tx) => {
        await tx.query(
          `INSERT INTO "_changes" ("eventName", "collection", "recordId", "record") VALUES ('note.created', 'notes', $1, '{}')`,
          [id],
        );
        await tx.query('SELECT pg_sleep(0.3)');
        if (!commit) throw new Error('rolled back');
      })
      .catch(() => undefined);
    return id;
  }

  it('delivers every committed change exactly once, in commit order, to a reader following with small pages', async () => {
    let cursor = (await t.http.get('/changes/head')).body.data.token as string;
    const shared = (await ok(t.http.post('/companies?depth=0', { name: 'shared' }))).body.data.createCompany.id;
    const received: Json[] = [];
    const cursors: number[] = [];
    let done = false;
    const reader = (async () => {
      for (;;) {
        const finished = done;
        const res = await ok(t.http.get(`/changes?since=${cursor}&limit=7`));
        received.push(...res.body.data.changes);
        cursor = res.body.pageInfo.endCursor;
        cursors.push(positionOf(cursor)!);
        if (res.body.data.changes.length === 0) {
          if (finished) return;
          await sleep(10);
        }
      }
    })();
    // an export taken while the writers run: itself plus the feed after its X-Changes-Token is the final table
    const exported = (async () => {
      await sleep(150);
      const res = await fetch(`${t.baseUrl}/people/export?format=ndjson`, {
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(res.status).toBe(200);
      const token = res.headers.get('x-changes-token')!;
      const records = (await res.text())
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Json);
      return { token, records };
    })();
    const slowIds = await Promise.all([
      ...Array.from({ length: WRITERS }, (_, w) => writer(w, shared).then(() => [])),
      slow(true).then((id) => [id]),
      slow(false).then(() => []),
      sleep(100).then(() => slow(true).then((id) => [id])),
      sleep(200).then(() => slow(false).then(() => [])),
    ]);
    done = true;
    await reader;

    // exactly once, positions increasing, never behind an endCursor already handed out
    const positions = received.map((c) => positionOf(c.id)!);
    expect(new Set(positions).size).toBe(positions.length);
    expect([...positions].sort((x, y) => x - y)).toEqual(positions);
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]).toBeGreaterThanOrEqual(cursors[i - 1]);
    // the slow transactions: the committed ones once, the rolled-back ones never
    const notes = received.filter((c) => c.collection === 'notes').map((c) => c.recordId);
    expect(notes.sort()).toEqual(slowIds.flat().sort());
    // every acknowledged change, as the audit log (same statements) counts them; nothing rolled back
    const audit = await t.db.query<{ name: string; recordId: string }>(
      `SELECT "name", "recordId" FROM "auditLog" WHERE "objectName" IN ('person', 'company')`,
    );
    const key = (e: { name?: string; eventName?: string; recordId: string }) =>
      `${e.name ?? e.eventName} ${e.recordId}`;
    const feed = received.filter((c) => c.collection === 'people' || c.collection === 'companies');
    expect(feed.map(key).sort()).toEqual(audit.map(key).sort());
    expect(feed.length).toBeGreaterThan(WRITERS * 15);
    expect(feed.some((c) => c.record?.city === 'ROLLBACK')).toBe(false);
    // replayed in feed order, the changes give the tables as they are: each record's in commit order
    const replay = new Map<string, Json>();
    for (const c of feed) {
      if (c.eventName.endsWith('.destroyed')) replay.delete(c.recordId);
      else replay.set(c.recordId, c.record);
    }
    const people = await t.db.query<Json>(`SELECT "id", "city", "jobTitle", "deletedAt" FROM "person"`);
    const companies = await t.db.query<Json>(`SELECT "id", "name" FROM "company"`);
    expect(replay.size).toBe(people.length + companies.length);
    for (const p of people) {
      const r = replay.get(p.id);
      expect([r.city, r.jobTitle, r.deletedAt === null]).toEqual([p.city, p.jobTitle, p.deletedAt === null]);
    }
    for (const co of companies) expect(replay.get(co.id).name).toBe(co.name);

    // the export of the middle of the run, followed by the feed from its token: the live people now
    const { token, records } = await exported;
    const at = positionOf(token)!;
    expect(positions.some((p) => p <= at) && positions.some((p) => p > at)).toBe(true); // taken mid-run
    const state = new Map(records.map((r) => [r.id as string, r]));
    for (let since = token, more = true; more;) {
      const page = await ok(t.http.get(`/changes?since=${since}&collections=people&limit=1000`));
      for (const c of page.body.data.changes) {
        if (c.record === null || c.record.deletedAt !== null) state.delete(c.recordId);
        else state.set(c.recordId, c.record);
      }
      since = page.body.pageInfo.endCursor;
      more = page.body.pageInfo.hasNextPage;
    }
    const live = await t.db.query<Json>(`SELECT "id", "city", "jobTitle" FROM "person" WHERE "deletedAt" IS NULL`);
    expect([...state.keys()].sort()).toEqual(live.map((p) => p.id).sort());
    for (const p of live) expect([state.get(p.id)!.city, state.get(p.id)!.jobTitle]).toEqual([p.city, p.jobTitle]);
  }, 60_000);
});
