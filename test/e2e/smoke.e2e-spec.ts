import { startTestApp, TestApp } from '../support/test-app';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('creates and reads a company', async () => {
    const created = await t.http.post('/companies', { name: 'Acme', domainName: { primaryLinkUrl: 'acme.com' } });
    console.log(JSON.stringify(created.body, null, 1));
    expect(created.status).toBe(201);
    const id = created.body.data.createCompany.id;
    const got = await t.http.get(`/companies/${id}`);
    expect(got.status).toBe(200);
    const list = await t.http.get('/companies');
    console.log(JSON.stringify(list.body).slice(0, 500));
    expect(list.body.totalCount).toBe(1);
  });
});
