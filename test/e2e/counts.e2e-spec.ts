import { INestApplication } from '@nestjs/common';
import Redis from 'ioredis';
import { createApp } from '../../src/app.factory';
import { Db } from '../../src/core/database/db';
import { Http } from '../support/http';
import { postgresForSuite } from '../support/embedded-postgres';
import { redisForSuite } from '../support/redis-server';
import { countStatements } from '../support/statements';
import { startTestApp, TestApp, TEST_ENCRYPTION_KEY } from '../support/test-app';
import { testDatabaseKind } from '../support/test-database';

const onPostgres = testDatabaseKind() === 'postgres';

/**
 * totalCount stays exact while it is cached per (collection, filter) until the collection changes,
 * and `Prefer: count=none|estimated|exact` lets a client skip or cheapen it.
 */
describe('totalCount', () => {
  let t: TestApp;
  const filter = 'employees[gte]:100';
  const countOf = async (path = `/companies?filter=${filter}&limit=2`) => {
    const res = await t.http.get(path);
    expect(res.status).toBe(200);
    return res.body.totalCount as number;
  };
  const truth = async () =>
    (
      await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM company WHERE employees >= 100 AND "deletedAt" IS NULL`,
      )
    )[0].n;
  const counts = (work: () => Promise<unknown>) => countStatements(t.app.get(Db), /SELECT count\(\*\)/, work);

  beforeAll(async () => {
    // one instance: the cache keeps its versions in this process (on by default on PGlite only);
    // versions shared through Redis are the next describe's
    // COUNT_EXACT_LIMIT: where count=estimated stops counting (section 18), small enough to cross here
    t = await startTestApp({ COUNT_EXACT_LIMIT: '10', ...(onPostgres ? { COUNT_CACHE: 'on' } : {}) });
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `Count ${i}`, employees: i * 10 }));
    expect((await t.http.post('/batch/companies', rows)).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('counts once while paging through one filter', async () => {
    const statements = await counts(async () => {
      let res = await t.http.get(`/companies?filter=${filter}&limit=5`);
      expect(res.body.totalCount).toBe(20);
      for (let page = 0; page < 3; page++) {
        res = await t.http.get(`/companies?filter=${filter}&limit=5&starting_after=${res.body.pageInfo.endCursor}`);
        expect(res.body.totalCount).toBe(20);
      }
    });
    expect(statements).toBe(1); // computed for the first page, reused by the next three
  });

  it('stays exact through every kind of write', async () => {
    expect(await countOf()).toBe(await truth());
    const created = await t.http.post('/companies', { name: 'Count new', employees: 500 });
    const id = created.body.data.createCompany.id;
    expect(await countOf()).toBe(await truth());
    await t.http.patch(`/companies/${id}`, { employees: 5 }); // leaves the filter
    expect(await countOf()).toBe(await truth());
    await t.http.patch(`/companies/${id}`, { employees: 5000 }); // back in
    expect(await countOf()).toBe(await truth());
    await t.http.delete(`/companies/${id}?soft_delete=true`);
    expect(await countOf()).toBe(await truth());
    await t.http.patch(`/companies/${id}/restore`);
    expect(await countOf()).toBe(await truth());
    await t.http.post('/batch/companies', [
      { name: 'Count b1', employees: 100 },
      { name: 'Count b2', employees: 1 },
    ]);
    expect(await countOf()).toBe(await truth());
    await t.http.delete(`/companies/${id}`);
    expect(await countOf()).toBe(await truth());
  });

  it('sees rows cleared by a hard delete elsewhere (SET NULL on people.companyId)', async () => {
    const company = (await t.http.post('/companies', { name: 'Count parent' })).body.data.createCompany;
    await t.http.post('/batch/people', [{ companyId: company.id }, { companyId: company.id }]);
    const orphans = () => countOf('/people?filter=companyId[is]:NULL&limit=1');
    const before = await orphans();
    expect((await t.http.delete(`/companies/${company.id}`)).status).toBe(200);
    expect(await orphans()).toBe(before + 2);
  });

  it('stays exact through relation paths when only the related collection changes', async () => {
    const tag = `cr${Date.now()}`;
    const owner = (
      await t.http.post('/workspaceMembers?depth=0', {
        name: { firstName: 'Count', lastName: tag },
        userId: '00000000-0000-4000-8000-0000000000c1',
      })
    ).body.data.createWorkspaceMember;
    const companies = (
      await t.http.post('/batch/companies?depth=0', [
        { name: `${tag} small`, employees: 3, accountOwnerId: owner.id },
        { name: `${tag} large`, employees: 3000 },
      ])
    ).body.data.createCompanies;
    await t.http.post('/batch/people?depth=0', [
      { name: { firstName: 'A', lastName: tag }, companyId: companies[0].id, jobTitle: 'Engineer' },
      { name: { firstName: 'B', lastName: tag }, companyId: companies[0].id, jobTitle: 'Engineer' },
      { name: { firstName: 'C', lastName: tag }, companyId: companies[1].id, jobTitle: 'Engineer' },
    ]);
    const people = (filter: string) =>
      countOf(`/people?filter=${encodeURIComponent(`${filter},name.lastName[eq]:${tag}`)}&limit=1`);
    const companiesWith = (filter: string) =>
      countOf(`/companies?filter=${encodeURIComponent(`${filter},name[startsWith]:${tag}`)}&limit=1`);

    // many-to-one: people counted through their company; only the company is written
    expect(await people('company.employees[gt]:1000')).toBe(1);
    await t.http.patch(`/companies/${companies[0].id}`, { employees: 5000 });
    expect(await people('company.employees[gt]:1000')).toBe(3);
    await t.http.delete(`/companies/${companies[1].id}?soft_delete=true`);
    expect(await people('company.employees[gt]:1000')).toBe(2);

    // two hops: through the company to its account owner
    expect(await people(`company.accountOwner.name.lastName[eq]:${tag}`)).toBe(2);
    await t.http.patch(`/workspaceMembers/${owner.id}`, { name: { firstName: 'Count', lastName: `${tag}x` } });
    expect(await people(`company.accountOwner.name.lastName[eq]:${tag}`)).toBe(0);

    // one-to-many: companies counted through their people; only a person is written
    expect(await companiesWith('people.jobTitle[eq]:CTO')).toBe(0);
    const [someone] = (
      await t.http.get(`/people?filter=${encodeURIComponent(`name.lastName[eq]:${tag},name.firstName[eq]:A`)}&limit=1`)
    ).body.data.people;
    await t.http.patch(`/people/${someone.id}`, { jobTitle: 'CTO' });
    expect(await companiesWith('people.jobTitle[eq]:CTO')).toBe(1);
  });

  it('stays exact in the collections a merge re-points', async () => {
    const [keep, gone] = (
      await t.http.post('/batch/people?depth=0', [
        { name: { firstName: 'Keep', lastName: 'Merge' } },
        { name: { firstName: 'Gone', lastName: 'Merge' } },
      ])
    ).body.data.createPeople;
    await t.http.post('/batch/opportunities?depth=0', [
      { name: 'Merge deal 1', pointOfContactId: keep.id },
      { name: 'Merge deal 2', pointOfContactId: gone.id },
      { name: 'Merge deal 3', pointOfContactId: gone.id },
    ]);
    const deals = () => countOf(`/opportunities?filter=pointOfContactId[eq]:${keep.id}&limit=1`);
    expect(await deals()).toBe(1);
    expect((await t.http.patch('/people/merge?depth=0', { ids: [keep.id, gone.id] })).status).toBe(200);
    expect(await deals()).toBe(3);
  });

  it('honours Prefer: count=none, count=estimated and count=exact', async () => {
    const none = await t.http.get(`/companies?filter=${filter}`, { headers: { prefer: 'count=none' } });
    expect(none.status).toBe(200);
    expect(none.body.totalCount).toBeNull();
    expect(none.headers.get('preference-applied')).toBe('count=none');
    const estimated = await t.http.get('/companies', { headers: { prefer: 'return=representation, count=estimated' } });
    expect(estimated.headers.get('preference-applied')).toBe('count=estimated');
    expect(Number.isInteger(estimated.body.totalCount)).toBe(true);
    expect(estimated.body.totalCount).toBeGreaterThanOrEqual(0);
    const exact = await t.http.get(`/companies?filter=${filter}`, { headers: { prefer: 'count=exact' } });
    expect(exact.body.totalCount).toBe(await truth());
    const unknown = await t.http.get(`/companies?filter=${filter}`, { headers: { prefer: 'count=sometimes' } });
    expect(unknown.headers.get('preference-applied')).toBeNull();
    expect(unknown.body.totalCount).toBe(await truth());
    const statements = await counts(() => t.http.get('/companies', { headers: { prefer: 'count=none' } }));
    expect(statements).toBe(0);
  });

  it('count=estimated: exact up to COUNT_EXACT_LIMIT matches, above it an estimate flagged as one, never below the limit + 1', async () => {
    const estimated = async (filter: string) => {
      const res = await t.http.get(`/companies?limit=1&filter=${encodeURIComponent(filter)}`, {
        headers: { prefer: 'count=estimated' },
      });
      expect(res.headers.get('preference-applied')).toBe('count=estimated');
      return [res.body.totalCount, res.body.totalCountEstimated];
    };
    const rows = Array.from({ length: 12 }, (_, i) => ({ name: `Estimate ${i}`, employees: i }));
    expect((await t.http.post('/batch/companies', rows)).status).toBe(201);
    expect(await estimated('and(name[like]:"Estimate %",employees[lt]:9)')).toEqual([9, false]);
    expect(await estimated('and(name[like]:"Estimate %",employees[lt]:10)')).toEqual([10, false]); // the limit
    const [over, flagged] = await estimated('and(name[like]:"Estimate %",employees[lt]:11)'); // the limit + 1
    expect(flagged).toBe(true);
    expect(over).toBeGreaterThanOrEqual(11);
    const [none, noneFlagged] = await estimated('name[eq]:"No such company"');
    expect([none, noneFlagged]).toEqual([0, false]);
    // exact and none answer no flag: their answers are those of section 4
    const exact = await t.http.get('/companies?limit=1', { headers: { prefer: 'count=exact' } });
    expect(exact.body).not.toHaveProperty('totalCountEstimated');
    expect((await t.http.get('/companies?limit=1')).body).not.toHaveProperty('totalCountEstimated');
  });

  it('count=estimated is counted once per version of the collection, like an exact count', async () => {
    const estimated = async () => {
      const res = await t.http.get(`/companies?limit=1&filter=${encodeURIComponent('name[like]:"Cached %"')}`, {
        headers: { prefer: 'count=estimated' },
      });
      return [res.body.totalCount, res.body.totalCountEstimated];
    };
    const add = async (from: number, n: number) => {
      const rows = Array.from({ length: n }, (_, i) => ({ name: `Cached ${from + i}` }));
      expect((await t.http.post('/batch/companies?depth=0', rows)).status).toBe(201);
    };
    await add(0, 5);
    let seen: unknown[][] = [];
    const statements = await counts(async () => {
      for (let i = 0; i < 3; i++) seen.push(await estimated());
    });
    expect(seen).toEqual([
      [5, false],
      [5, false],
      [5, false],
    ]);
    expect(statements).toBe(1); // the first request counted, the next two reused it
    await add(5, 5);
    expect(await estimated()).toEqual([10, false]); // the write changed the version: counted again
    await add(10, 1);
    const [over, flagged] = await estimated(); // above the limit: an estimate, kept flagged
    expect([over >= 11, flagged]).toEqual([true, true]);
    seen = [];
    expect(await counts(async () => seen.push(await estimated()))).toBe(0);
    expect(seen).toEqual([[over, true]]);
  });
});

/**
 * Across instances: two apps on one PostgreSQL (TEST_DATABASE_URL, or a server of this file's
 * own) and one Redis (TEST_REDIS_URL, or a redis-server of this file's own) share the versions.
 */
const ownPostgres = postgresForSuite('counts-across-instances');
const redis = redisForSuite('counts-across-instances-redis');
(redis.enabled ? ownPostgres.describe : describe.skip)('totalCount across instances', () => {
  let t: TestApp;
  const filter = 'employees[gte]:100';
  const truth = async () =>
    (
      await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM company WHERE employees >= 100 AND "deletedAt" IS NULL`,
      )
    )[0].n;

  beforeAll(async () => {
    await ownPostgres.beforeAll();
    await redis.beforeAll();
    t = await startTestApp(redis.env());
    const rows = Array.from({ length: 30 }, (_, i) => ({ name: `Count ${i}`, employees: i * 10 }));
    expect((await t.http.post('/batch/companies', rows)).status).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await redis.afterAll();
    await ownPostgres.afterAll();
  });

  it('stays exact across instances sharing Redis', async () => {
    let other: INestApplication | undefined;
    try {
      ({ app: other } = await createApp({
        env: {
          ...t.database.env,
          ...redis.env(),
          METRICS_PORT: '0',
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          BOOTSTRAP_API_KEY: 'false',
          LOG_LEVEL: 'silent',
          WEBHOOK_DISPATCH: 'false',
        },
      }));
      await other.listen(0, '127.0.0.1');
      const b = new Http(`${(await other.getUrl()).replace('[::1]', '127.0.0.1')}/rest`, t.token);
      const onB = async () => (await b.get(`/companies?filter=${filter}`)).body.totalCount as number;
      const countsOnB = (work: () => Promise<unknown>) => countStatements(other!.get(Db), /SELECT count\(\*\)/, work);
      let first = 0;
      expect(await countsOnB(async () => (first = await onB()))).toBe(1);
      expect(first).toBe(await truth());
      // cached on B: no count statement (without a reachable Redis, B would count every time)
      expect(await countsOnB(async () => expect(await onB()).toBe(first))).toBe(0);
      await t.http.post('/companies', { name: 'Count on A', employees: 1000 }); // written through A
      // B learns of A's write through Redis alone, and counts again
      expect(await countsOnB(async () => expect(await onB()).toBe(first + 1))).toBe(1);
      // the versions live under this file's own key prefix
      const { REDIS_KEY_PREFIX } = redis.env();
      const shared = new Redis(redis.env().REDIS_URL);
      try {
        expect(await shared.exists(`${REDIS_KEY_PREFIX}count-version:companies`)).toBe(1);
      } finally {
        shared.disconnect();
      }
    } finally {
      await other?.close();
    }
  });
});
