import { recordStatements } from '../support/statements';
import { startTestApp, TestApp } from '../support/test-app';

type Opportunity = {
  id: string;
  name: string;
  stage: string;
  amount: { amountMicros: number | null; currencyCode: string } | null;
  closeDate: string | null;
};

/** Group by and aggregates (API.md section 12), compared with a model computed from the seeded rows. */
describe('group by', () => {
  let t: TestApp;
  let stmts: ReturnType<typeof recordStatements>;
  const tag = `gb${Date.now()}`;
  const seeded: Opportunity[] = [];
  const stages = ['NEW', 'SCREENING', 'MEETING', 'PROPOSAL', 'CUSTOMER'];
  const only = (extra = '') => encodeURIComponent(`name[startsWith]:"${tag}"${extra}`);
  const get = (query: string) => t.http.get(`/opportunities/groupBy?filter=${only()}&${query}`);

  beforeAll(async () => {
    t = await startTestApp();
    stmts = recordStatements(t.db);
    const closeDates = ['2026-01-31T23:30:00.000Z', '2026-02-01T10:00:00.000Z', '2026-03-15T12:00:00.000Z', null];
    const body = Array.from({ length: 37 }, (_, i) => ({
      name: `${tag}-${i}`,
      stage: stages[(i * 3) % 4],
      amount: i % 6 === 0 ? null : { amountMicros: 1_000_000 * (i * 7 + 0.25), currencyCode: i % 2 ? 'EUR' : 'USD' },
      closeDate: closeDates[i % 4],
    }));
    seeded.push(...(await t.http.post('/batch/opportunities?depth=0', body)).body.data.createOpportunities);
  });
  afterAll(async () => t?.close());

  const sumMicros = (rows: Opportunity[]) => rows.reduce((s, r) => s + (r.amount?.amountMicros ?? 0), 0);

  it('by stage with sum and count: groups in the order of the options, values to the cent', async () => {
    const res = await get(
      `group_by=${encodeURIComponent('[{"stage":true}]')}&aggregate=${encodeURIComponent('["sumAmountAmountMicros","countEmptyAmountAmountMicros"]')}`,
    );
    expect(res.status).toBe(200);
    const expected = stages
      .filter((s) => seeded.some((o) => o.stage === s))
      .map((stage) => {
        const rows = seeded.filter((o) => o.stage === stage);
        return {
          groupByDimensionValues: [stage],
          totalCount: rows.length,
          sumAmountAmountMicros: sumMicros(rows),
          countEmptyAmountAmountMicros: rows.filter((r) => r.amount?.amountMicros == null).length,
        };
      });
    expect(res.body).toEqual(expected);
  });

  it('no group_by: one group over the whole filtered set; min, max, avg, percentages, unique values', async () => {
    const aggregates = [
      'minCloseDate',
      'maxCloseDate',
      'avgAmountAmountMicros',
      'percentageEmptyCloseDate',
      'countUniqueValuesStage',
    ];
    const res = await get(`aggregate=${encodeURIComponent(JSON.stringify(aggregates))}`);
    const dates = seeded
      .map((o) => o.closeDate)
      .filter((d): d is string => d !== null)
      .sort();
    const amounts = seeded.map((o) => o.amount?.amountMicros).filter((a): a is number => a != null);
    expect(res.body).toHaveLength(1);
    expect(res.body[0]).toMatchObject({
      groupByDimensionValues: [],
      totalCount: seeded.length,
      minCloseDate: dates[0],
      maxCloseDate: dates[dates.length - 1],
      percentageEmptyCloseDate: seeded.filter((o) => o.closeDate === null).length / seeded.length,
      countUniqueValuesStage: new Set(seeded.map((o) => o.stage)).size,
    });
    expect(res.body[0].avgAmountAmountMicros).toBeCloseTo(amounts.reduce((a, b) => a + b, 0) / amounts.length, 3);
  });

  it('dates by granularity in a time zone; the null group last', async () => {
    const month = (zone: string) =>
      get(
        `group_by=${encodeURIComponent('[{"closeDate":{"granularity":"MONTH"}}]')}&timezone=${encodeURIComponent(zone)}`,
      );
    const count = (pred: (d: string | null) => boolean) => seeded.filter((o) => pred(o.closeDate)).length;
    const utc = (await month('UTC')).body.map((g: { groupByDimensionValues: unknown[]; totalCount: number }) => [
      g.groupByDimensionValues[0],
      g.totalCount,
    ]);
    expect(utc).toEqual([
      ['2026-01-01', count((d) => d?.startsWith('2026-01') ?? false)],
      ['2026-02-01', count((d) => d?.startsWith('2026-02') ?? false)],
      ['2026-03-01', count((d) => d?.startsWith('2026-03') ?? false)],
      [null, count((d) => d === null)],
    ]);
    // 2026-01-31T23:30Z is already February in Paris
    const paris = (await month('Europe/Paris')).body.map(
      (g: { groupByDimensionValues: unknown[]; totalCount: number }) => [g.groupByDimensionValues[0], g.totalCount],
    );
    expect(paris).toEqual([
      ['2026-02-01', count((d) => d !== null && d < '2026-03')],
      ['2026-03-01', count((d) => d?.startsWith('2026-03') ?? false)],
      [null, count((d) => d === null)],
    ]);
    const weekday = await get(
      `group_by=${encodeURIComponent('[{"closeDate":{"granularity":"DAY_OF_THE_WEEK"}}]')}&timezone=UTC`,
    );
    // 2026-01-31 is a Saturday (6), 2026-02-01 a Sunday (7), 2026-03-15 a Sunday
    expect(weekday.body.map((g: { groupByDimensionValues: unknown[] }) => g.groupByDimensionValues[0])).toEqual([
      6,
      7,
      null,
    ]);
  });

  it('order_by totalCount, a composite dimension, a limit, and record samples', async () => {
    const res = await get(
      `group_by=${encodeURIComponent('[{"amount":{"currencyCode":true}}]')}&order_by=${encodeURIComponent('[{"totalCount":"DESC"}]')}&limit=2&include_records_sample=true`,
    );
    expect(res.body).toHaveLength(2);
    expect(res.body[0].totalCount).toBeGreaterThanOrEqual(res.body[1].totalCount);
    for (const group of res.body) {
      const members = seeded
        .filter((o) => (o.amount?.currencyCode ?? null) === group.groupByDimensionValues[0])
        .map((o) => o.id)
        .sort();
      expect(group.totalCount).toBe(members.length);
      expect(group.records.map((r: { id: string }) => r.id)).toEqual(members.slice(0, 10));
    }
  });

  it("order_by_for_records orders each sample in the list grammar (id last, the last key's way)", async () => {
    const dims = `group_by=${encodeURIComponent('[{"stage":true}]')}&include_records_sample=true`;
    const micros = (o: Opportunity) => o.amount?.amountMicros ?? null;
    const cases: [string, (a: Opportunity, b: Opportunity) => number][] = [
      ['name[DescNullsLast]', (a, b) => b.name.localeCompare(a.name)],
      [
        'amount.amountMicros[AscNullsFirst]',
        (a, b) => (micros(a) ?? -Infinity) - (micros(b) ?? -Infinity) || (a.id < b.id ? -1 : 1),
      ],
    ];
    for (const [order, compare] of cases) {
      const res = await get(`${dims}&order_by_for_records=${encodeURIComponent(order)}`);
      expect({ order, status: res.status }).toEqual({ order, status: 200 });
      for (const group of res.body) {
        const members = seeded.filter((o) => o.stage === group.groupByDimensionValues[0]).sort(compare);
        expect({ order, ids: group.records.map((r: { id: string }) => r.id) }).toEqual({
          order,
          ids: members.slice(0, 10).map((o) => o.id),
        });
      }
    }
    for (const [query, message] of [
      ['nope[AscNullsFirst]', /field 'nope' does not exist/],
      ['name[Sideways]', /Sideways/],
      ['amount[AscNullsFirst]', /amount/],
    ] as const) {
      const res = await get(`${dims}&order_by_for_records=${encodeURIComponent(query)}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.messages[0]).toMatch(message);
    }
  });

  it('countTrue and countFalse of a BOOLEAN; 50 groups unless limit says otherwise', async () => {
    const prefix = `${tag}-icp`;
    const rows = Array.from({ length: 55 }, (_, i) => ({ name: `${prefix}-${i}`, idealCustomerProfile: i % 3 === 0 }));
    expect((await t.http.post('/batch/companies?depth=0', rows)).status).toBe(201);
    const companies = (query: string) =>
      t.http.get(`/companies/groupBy?filter=${encodeURIComponent(`name[startsWith]:"${prefix}"`)}&${query}`);
    const counts = await companies(
      `aggregate=${encodeURIComponent('["countTrueIdealCustomerProfile","countFalseIdealCustomerProfile"]')}`,
    );
    expect(counts.body).toEqual([
      {
        groupByDimensionValues: [],
        totalCount: 55,
        countTrueIdealCustomerProfile: 19,
        countFalseIdealCustomerProfile: 36,
      },
    ]);
    const byName = `group_by=${encodeURIComponent('[{"name":true}]')}`;
    expect((await companies(byName)).body).toHaveLength(50);
    expect((await companies(`${byName}&limit=200`)).body).toHaveLength(55);
  });

  it('bad parameters: 400 naming the problem', async () => {
    const cases: [string, RegExp][] = [
      [`aggregate=${encodeURIComponent('["sumName"]')}`, /aggregate 'sumName' is not offered/],
      [`aggregate=${encodeURIComponent('["maxNothing"]')}`, /aggregate 'maxNothing'/],
      [
        `group_by=${encodeURIComponent('[{"stage":true},{"name":true},{"closeDate":true},{"position":true}]')}`,
        /at most 3/,
      ],
      [`group_by=${encodeURIComponent('[{"closeDate":{"granularity":"HOUR"}}]')}`, /granularity must be one of/],
      [`group_by=${encodeURIComponent('[{"name":{"granularity":"DAY"}}]')}`, /'name' is not a date/],
      [`group_by=nope`, /group_by must be a JSON array/],
      [`group_by=${encodeURIComponent('[{"nope":true}]')}`, /field 'nope' does not exist/],
      [`timezone=Mars/Olympus`, /not an IANA time zone/],
      [`limit=500`, /limit '500' is invalid/],
      [`order_by=${encodeURIComponent('[{"sumX":"DESC"}]')}`, /neither totalCount/],
    ];
    for (const [query, message] of cases) {
      const res = await get(query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(res.body.messages[0]).toMatch(message);
    }
  });

  it('one statement per request (two with record samples), whatever the data size', async () => {
    const one = await stmts.during(() => get(`group_by=${encodeURIComponent('[{"stage":true}]')}`));
    expect(one.statements.filter((s) => s.includes('GROUP BY'))).toHaveLength(1);
    expect(one.statements).toHaveLength(1);
    const two = await stmts.during(() =>
      get(`group_by=${encodeURIComponent('[{"stage":true}]')}&include_records_sample=true`),
    );
    expect(two.statements).toHaveLength(2);
  });
});
