import { Db } from '../../src/core/database/db';
import { LiveCounts } from '../../src/core/records/live-counts';
import { countStatements } from '../support/statements';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The unfiltered totalCount (API.md section 18) is read from the live-count deltas that triggers
 * append with every write, not counted: it must equal count(*) after every kind of write, made by
 * concurrent writers while the deltas are compacted.
 */
describe('totalCount of every live record (maintained counts)', () => {
  let t: TestApp;
  const WRITERS = 8;
  const ROUNDS = 10;

  const truth = async (where = 'TRUE') =>
    (
      await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM company WHERE "deletedAt" IS NULL AND ${where}`)
    )[0].n;
  const totalCount = async (query = '') => {
    const res = await t.http.get(`/companies?limit=1&depth=0${query}`);
    expect(res.status).toBe(200);
    return res.body.totalCount as number;
  };
  const counts = (work: () => Promise<unknown>) => countStatements(t.app.get(Db), /SELECT count\(\*\)/, work);

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** One write of writer `w` at round `r` over its own companies (`LC<w> ...`): each kind in turn. */
  async function step(w: number, r: number): Promise<void> {
    const name = `LC${w}`;
    const mine = encodeURIComponent(`name[startsWith]:"${name} "`);
    const ids = async (deleted = false) =>
      (
        await t.http.get(
          `/companies?depth=0&limit=50&filter=${deleted ? encodeURIComponent(`name[startsWith]:"${name} ",deletedAt[is]:NOT_NULL`) : mine}`,
        )
      ).body.data.companies.map((c: { id: string }) => c.id) as string[];
    const expectOk = (res: { status: number; text: string }) => {
      if (res.status >= 300) throw new Error(`writer ${w}, round ${r}: ${res.status} ${res.text}`);
    };
    switch ((w + r) % 8) {
      case 0:
        expectOk(await t.http.post('/companies', { name: `${name} one ${r}`, employees: r * 10 }));
        break;
      case 1: {
        const rows = Array.from({ length: 5 }, (_, i) => ({ name: `${name} batch ${r}.${i}`, employees: i * 25 }));
        expectOk(await t.http.post('/batch/companies', rows));
        break;
      }
      case 2: {
        const [id] = await ids();
        if (id) expectOk(await t.http.delete(`/companies/${id}?soft_delete=true`));
        break;
      }
      case 3: {
        const [id] = await ids(true);
        if (id) expectOk(await t.http.patch(`/companies/${id}/restore`));
        break;
      }
      case 4: {
        const [id] = await ids();
        if (id) expectOk(await t.http.delete(`/companies/${id}`));
        break;
      }
      case 5:
        // bulk: an update, then a soft delete of half and a restore of them all
        expectOk(await t.http.patch(`/companies?filter=${mine}`, { employees: 60 + r }));
        expectOk(
          await t.http.delete(
            `/companies?soft_delete=true&filter=${encodeURIComponent(`name[startsWith]:"${name} batch"`)}`,
          ),
        );
        expectOk(
          await t.http.patch(
            `/companies/restore?filter=${encodeURIComponent(`name[like]:"${name} batch ${r - 1}.%"`)}`,
          ),
        );
        break;
      case 6: {
        // an import: two new rows, and an update by id of a soft-deleted company (which restores it)
        const [gone] = await ids(true);
        const lines = ['id,name,employees', `,${name} import ${r}.a,70`, `,${name} import ${r}.b,5`];
        if (gone) lines.push(`${gone},${name} imported back ${r},90`);
        const res = await t.http.request('POST', '/companies/import?operation=upsert', {
          raw: lines.join('\r\n') + '\r\n',
          headers: { 'content-type': 'text/csv', prefer: 'wait=60' },
        });
        expectOk(res);
        expect(res.body.data.import.state).toBe('completed');
        break;
      }
      default: {
        // a hard delete of many
        const some = (await ids()).slice(0, 2);
        if (some.length)
          expectOk(await t.http.delete(`/companies?filter=${encodeURIComponent(`id[in]:[${some.join(',')}]`)}`));
      }
    }
  }

  it('equals count(*) after every round of 8 concurrent writers (creates, batches, soft deletes, restores, hard deletes, bulk writes, imports) and compactions', async () => {
    const live = t.app.get(LiveCounts);
    for (let r = 0; r < ROUNDS; r++) {
      await Promise.all([...Array.from({ length: WRITERS }, (_, w) => step(w, r)), live.compact()]);
      expect(await totalCount()).toBe(await truth());
      expect(await totalCount(`&filter=${encodeURIComponent('employees[gte]:50')}`)).toBe(
        await truth('employees >= 50'),
      );
      const estimated = await t.http.get('/companies?limit=1', { headers: { prefer: 'count=estimated' } });
      expect([estimated.body.totalCount, estimated.body.totalCountEstimated]).toEqual([await truth(), false]);
    }
    expect(await truth()).toBeGreaterThan(WRITERS * 2); // the writers created more than they deleted
  });

  it('counts nothing for the unfiltered list; a compaction leaves one delta row per table and the same count', async () => {
    expect(await counts(() => totalCount())).toBe(0);
    // a filter is counted (one not asked before: the count cache of the embedded database keeps the others)
    expect(await counts(() => totalCount(`&filter=${encodeURIComponent('employees[gte]:7')}`))).toBe(1);
    const live = t.app.get(LiveCounts);
    await live.compact();
    const rows = await t.db.query<{ table: string; n: number }>(
      `SELECT "table", count(*)::int AS n FROM "_live_counts" GROUP BY "table" HAVING count(*) > 1`,
    );
    expect(rows).toEqual([]);
    expect(await totalCount()).toBe(await truth());
  });

  it('a read that sums many deltas has them compacted on the next tick of the instance', async () => {
    const deltas = async () =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "_live_counts" WHERE "table" = 'company'`))[0].n;
    for (let i = 0; i < 70; i++) expect((await t.http.post('/companies', { name: `LC many ${i}` })).status).toBe(201);
    expect(await deltas()).toBeGreaterThan(64);
    expect(await totalCount()).toBe(await truth());
    const deadline = Date.now() + 15_000; // the tick is every 5 s
    while ((await deltas()) > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await deltas()).toBe(1);
    expect(await totalCount()).toBe(await truth());
  });

  it('follows a TRUNCATE and rolled-back writes', async () => {
    const member = await t.http.post('/workspaceMembers', { userId: '00000000-0000-4000-8000-00000000a001' });
    const workspaceMemberId = member.body.data.createWorkspaceMember.id as string;
    const created = await t.http.post('/batch/blocklists', [
      { handle: 'a@truncate.example', workspaceMemberId },
      { handle: 'b@truncate.example', workspaceMemberId },
    ]);
    expect(created.status).toBe(201);
    const blocklists = async () => (await t.http.get('/blocklists?limit=1')).body.totalCount as number;
    expect(await blocklists()).toBe(2);
    await t.db.query('TRUNCATE "blocklist"');
    expect(await blocklists()).toBe(0);
    // a write rolled back leaves no delta either
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`INSERT INTO "blocklist" ("handle", "workspaceMemberId") VALUES ('c@truncate.example', $1)`, [
          workspaceMemberId,
        ]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await t.http.post('/blocklists', { handle: 'd@truncate.example', workspaceMemberId })).status).toBe(201);
    expect(await blocklists()).toBe(1);
  });
});
