import fc from 'fast-check';
import { Http, Json } from '../support/http';
import { keyWithRole, RoleKey } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Row-filter properties (API.md section 14): a key whose grant has a row filter sees exactly what
 * an admin sees with that filter ANDed to its own request (same records, same order, same
 * totalCount, page after page), and its bulk writes touch exactly the intersection of its
 * request's filter and the row filter.
 */
const SEED = 20261127;
const ROLE_FILTER = 'city[in]:["paris","lyon"]';
const CITIES = ['paris', 'lyon', 'nice', 'rome', ''];
const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Edsger'];
const JOBS = ['CTO', 'Engineer', 'Founder', ''];
const COUNT = 30;

const q = (s: string) => encodeURIComponent(s);
const pick = <T>(xs: readonly T[]) => fc.constantFrom(...xs);

const leaf: fc.Arbitrary<string> = fc.oneof(
  pick(JOBS).map((j) => `jobTitle[eq]:"${j}"`),
  fc.subarray(JOBS, { minLength: 1 }).map((xs) => `jobTitle[in]:[${xs.map((x) => `"${x}"`).join(',')}]`),
  fc.integer({ min: 0, max: 6 }).map((n) => `position[gt]:${n}`),
  fc.integer({ min: 0, max: 6 }).map((n) => `position[lte]:${n}`),
  pick(['a', 'l', 'g', 'in']).map((s) => `name.firstName[ilike]:"%${s}%"`),
  pick(CITIES).map((c) => `city[eq]:"${c}"`),
  pick(CITIES).map((c) => `city[neq]:"${c}"`),
  fc.integer({ min: 0, max: 2 }).map((n) => `emails.primaryEmail[like]:"p${n}%"`),
);
const filter: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: leaf },
  { weight: 1, arbitrary: leaf.map((l) => `not(${l})`) },
  { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([x, y]) => `or(${x},${y})`) },
  { weight: 1, arbitrary: fc.tuple(leaf, leaf).map(([x, y]) => `and(${x},${y})`) },
);
const sort = pick([
  'name.firstName[AscNullsFirst]',
  'jobTitle[DescNullsLast],position',
  'position[DescNullsFirst]',
  'city[AscNullsLast],name.firstName[DescNullsFirst]',
  'emails.primaryEmail[DescNullsLast]',
  'createdAt[DescNullsLast]',
]);

interface Page {
  records: Json[];
  totalCount: number;
  hasNextPage: boolean;
  startCursor?: string;
}

/** Every page of a list, following endCursor (at most COUNT + 1 pages). */
async function allPages(http: Http, base: string): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | undefined;
  for (let i = 0; i <= COUNT; i++) {
    const res = await http.get(cursor ? `${base}&starting_after=${q(cursor)}` : base);
    if (res.status !== 200) throw new Error(`GET ${base}: ${res.status} ${res.text}`);
    pages.push({
      records: res.body.data.people,
      totalCount: res.body.totalCount,
      hasNextPage: res.body.pageInfo.hasNextPage,
      startCursor: res.body.pageInfo.startCursor,
    });
    if (!res.body.pageInfo.hasNextPage) return pages;
    cursor = res.body.pageInfo.endCursor;
  }
  throw new Error(`GET ${base}: more pages than records`);
}

describe('access row filter: a key sees and changes exactly the rows its grant filters', () => {
  let t: TestApp;
  let key: RoleKey;
  /** The admin's view of every person, by id (depth 0). */
  const snapshot = async (): Promise<Map<string, Json>> => {
    const res = await t.http.get('/people?depth=0&limit=200');
    return new Map(res.body.data.people.map((p: Json) => [p.id, p]));
  };

  beforeAll(async () => {
    t = await startTestApp();
    key = await keyWithRole(t, [{ collection: 'people', actions: ['read', 'update'], filter: ROLE_FILTER }]);
    const people = Array.from({ length: COUNT }, (_, i) => ({
      name: { firstName: FIRST[(i * 3) % FIRST.length], lastName: `L${i % 4}` },
      emails: { primaryEmail: `p${i}@example.com` },
      jobTitle: JOBS[i % JOBS.length],
      city: CITIES[(i * 7) % CITIES.length],
      position: i % 7,
    }));
    const res = await t.http.post('/batch/people?depth=0', people);
    if (res.status !== 201) throw new Error(`seeding: ${res.status} ${res.text}`);
  });
  afterAll(async () => t?.close());

  it('lists: every page of the key equals the admin page under and(role filter, request filter)', async () => {
    let nonEmpty = 0;
    let multiPage = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.option(filter, { nil: undefined }),
        fc.option(sort, { nil: undefined }),
        fc.integer({ min: 1, max: 8 }),
        async (f, s, limit) => {
          const params = (fil: string | undefined) =>
            [
              `depth=0`,
              `limit=${limit}`,
              ...(fil ? [`filter=${q(fil)}`] : []),
              ...(s ? [`order_by=${q(s)}`] : []),
            ].join('&');
          const mine = await allPages(key.http, `/people?${params(f)}`);
          const admin = await allPages(t.http, `/people?${params(f ? `and(${ROLE_FILTER},${f})` : ROLE_FILTER)}`);
          const strip = (pages: Page[]) => pages.map(({ startCursor: _c, ...p }) => p);
          expect({ f, s, limit, pages: strip(mine) }).toEqual({ f, s, limit, pages: strip(admin) });
          // backward from the last page: the page before it, the same for both
          const last = (pages: Page[]) => pages[pages.length - 1].startCursor;
          if (mine.length > 1) {
            expect({ f, s, limit, lastPage: mine[mine.length - 1] }).toEqual({
              f,
              s,
              limit,
              lastPage: expect.objectContaining({ startCursor: expect.any(String) }),
            });
            const back = async (http: Http, fil: string | undefined, cursor: string | undefined) =>
              (await http.get(`/people?${params(fil)}&ending_before=${q(cursor ?? '')}`)).text;
            const mineBack = await back(key.http, f, last(mine));
            const adminBack = await back(t.http, f ? `and(${ROLE_FILTER},${f})` : ROLE_FILTER, last(admin));
            expect({ f, s, limit, back: mineBack }).toEqual({ f, s, limit, back: adminBack });
            expect({ f, s, limit, back: JSON.parse(mineBack).data?.people ?? JSON.parse(mineBack) }).toEqual({
              f,
              s,
              limit,
              back: mine[mine.length - 2].records,
            });
          }
          // group by over the same rows: the same groups, counts and samples
          const groups = async (http: Http, fil: string | undefined) => {
            const filterParam = fil ? `&filter=${q(fil)}` : '';
            const by = q('[{"jobTitle":true}]');
            return (await http.get(`/people/groupBy?group_by=${by}&include_records_sample=true${filterParam}`)).body;
          };
          expect({ f, groups: await groups(key.http, f) }).toEqual({
            f,
            groups: await groups(t.http, f ? `and(${ROLE_FILTER},${f})` : ROLE_FILTER),
          });
          const all = mine.flatMap((p) => p.records);
          expect(all.every((p) => p.city === 'paris' || p.city === 'lyon')).toBe(true);
          expect(mine[0].totalCount).toBe(all.length);
          if (all.length > 0) nonEmpty += 1;
          if (mine.length > 1) multiPage += 1;
        },
      ),
      { seed: SEED, numRuns: 40 },
    );
    // the runs were not vacuous
    expect(nonEmpty).toBeGreaterThan(15);
    expect(multiPage).toBeGreaterThan(10);
  });

  it('bulk update: PATCH /people?filter= of the key changes exactly the intersection, nothing else', async () => {
    let run = 0;
    let changedRuns = 0;
    await fc.assert(
      fc.asyncProperty(filter, fc.boolean(), async (f, leave) => {
        run += 1;
        const before = await snapshot();
        const admin = await allPages(t.http, `/people?depth=0&limit=200&filter=${q(`and(${ROLE_FILTER},${f})`)}`);
        const inside = new Set(admin.flatMap((p) => p.records.map((r: Json) => r.id as string)));
        const marker = `https://x.example.com/run-${run}`;
        // `leave`: a change that would move the rows out of the role filter (refused unless no row is hit)
        const body = leave ? { city: 'rome' } : { xLink: { primaryLinkUrl: marker } };
        const res = await key.http.patch(`/people?depth=0&filter=${q(f)}`, body);
        const after = await snapshot();
        if (leave) {
          if (inside.size > 0) {
            expect({ f, status: res.status, body: res.body }).toEqual({
              f,
              status: 403,
              body: {
                statusCode: 403,
                error: 'FORBIDDEN',
                messages: [`API key '${key.name}' may only write people matching its filter`],
              },
            });
          } else {
            expect({ f, status: res.status }).toEqual({ f, status: 200 });
            expect(res.body.data.updatePeople).toEqual([]);
          }
          expect(after).toEqual(before);
          return;
        }
        expect({ f, status: res.status }).toEqual({ f, status: 200 });
        const answered = res.body.data.updatePeople.map((p: Json) => p.id as string).sort();
        expect({ f, answered }).toEqual({ f, answered: [...inside].sort() });
        expect(after.size).toBe(before.size);
        for (const [id, old] of before) {
          const now = after.get(id);
          if (inside.has(id)) {
            expect(now.xLink.primaryLinkUrl).toBe(marker);
            const { xLink: _a, updatedAt: _b, ...restNow } = now;
            const { xLink: _c, updatedAt: _d, ...restOld } = old;
            expect(restNow).toEqual(restOld);
          } else {
            expect({ f, id, now }).toEqual({ f, id, now: old });
          }
        }
        if (inside.size > 0) changedRuns += 1;
      }),
      { seed: SEED, numRuns: 25 },
    );
    expect(changedRuns).toBeGreaterThan(5);
  });
});
