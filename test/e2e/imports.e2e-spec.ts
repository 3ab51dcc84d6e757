import { parse } from 'csv-parse/sync';
import type { Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/** Imports (API.md section 17), end to end over HTTP on a real database. */
describe('import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => t?.close());

  const csv = (lines: string[]) => lines.join('\r\n') + '\r\n';
  const start = (plural: string, body: string, query = '', headers: Record<string, string> = {}) =>
    t.http.request('POST', `/${plural}/import${query}`, {
      raw: body,
      headers: { 'content-type': 'text/csv', prefer: 'wait=30', ...headers },
    });
  const report = async (id: string) =>
    parse((await t.http.get(`/imports/${id}/errors?format=csv`)).text, { columns: true }) as Json[];

  it('creates every row of a CSV, with a relation by a unique value, in one job', async () => {
    await t.http.post('/companies', { name: 'Acme', domainName: { primaryLinkUrl: 'https://acme.example' } });
    const res = await start(
      'people',
      csv([
        'name.firstName,name.lastName,emails.primaryEmail,city,company.domainName.primaryLinkUrl',
        'Ada,Lovelace,ada@example.com,London,https://acme.example',
        'Alan,Turing,alan@example.com,"Wilmslow, UK",',
      ]),
    );
    expect(res.status).toBe(200);
    const job = res.body.data.import;
    expect(job).toMatchObject({
      collection: 'people',
      operation: 'create',
      state: 'completed',
      atomic: true,
      dryRun: false,
    });
    expect(job.rows).toEqual({ read: 2, created: 2, updated: 0, unchanged: 0, failed: 0, unprocessed: 0 });
    expect(res.headers.get('location')).toBe(`/rest/imports/${job.id}`);
    const people = (await t.http.get('/people?depth=1&filter=city[in]:[London,"Wilmslow, UK"]')).body.data.people;
    expect(people.map((p: Json) => p.name.firstName).sort()).toEqual(['Ada', 'Alan']);
    expect(people.find((p: Json) => p.name.firstName === 'Ada').company.name).toBe('Acme');
  });

  it('reports every bad row with its line and code; atomic writes nothing', async () => {
    const res = await start(
      'people',
      csv([
        'name.firstName,emails.primaryEmail,city,company.domainName.primaryLinkUrl,createdAt',
        'Bad,bad@example.com,Paris,,yesterday',
        'Dup,dup@example.com,Paris,,',
        'Dup2,dup@example.com,Paris,,',
        'Rel,rel@example.com,Paris,https://nowhere.example,',
        'Ok,ok@example.com,Paris,,2020-01-02T03:04:05.000Z',
      ]),
    );
    const job = res.body.data.import;
    expect(job).toMatchObject({ state: 'failed' });
    const rows = await report(job.id);
    expect(job.rows).toMatchObject({ read: 5, created: 0, failed: 3, unprocessed: 2 });
    expect(rows.map((r: Json) => [r.line, r.code])).toEqual([
      ['2', 'INVALID_VALUE'],
      ['4', 'DUPLICATE_IN_FILE'],
      ['5', 'RELATION_NOT_FOUND'],
    ]);
    expect((await t.http.get('/people?filter=city[eq]:Paris')).body.totalCount).toBe(0);
  });
});
