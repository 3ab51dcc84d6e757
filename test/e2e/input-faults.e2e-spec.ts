import { randomUUID } from 'node:crypto';
import { catalog, createRecord, rowCount } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Faults found by trying the API as a new user (issue 14): bodies that are not JSON objects,
 * upper-case UUIDs wherever an id goes, and extra path segments under a collection.
 */
describe('input faults', () => {
  let t: TestApp;
  const companies = catalog.require('companies');
  const count = () => rowCount((sql) => t.db.query(sql), companies);
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe('a body that is not a JSON object: 400, nothing written', () => {
    const bodies: [string, { raw?: string; headers?: Record<string, string> }][] = [
      ['null', { raw: 'null', headers: { 'content-type': 'application/json' } }],
      ['an empty JSON body', { raw: '', headers: { 'content-type': 'application/json' } }],
      ['no body at all', {}],
    ];

    it.each(bodies)('create one with %s', async (_name, options) => {
      const before = await count();
      const res = await t.http.request('POST', '/companies', options);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'BadRequestException',
        messages: ['Body must be a JSON object'],
      });
      expect(await count()).toBe(before);
    });

    it.each(bodies)('update one with %s', async (_name, options) => {
      const company = await createRecord(t.http, 'companies');
      const res = await t.http.request('PATCH', `/companies/${company.id}`, options);
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(['Body must be a JSON object']);
      const after = await t.http.get(`/companies/${company.id}?depth=0`);
      expect(after.body.data.company.updatedAt).toBe(company.updatedAt);
    });

    it.each(bodies)('create many with %s', async (_name, options) => {
      const before = await count();
      const res = await t.http.request('POST', '/batch/companies', options);
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(['Body must be a JSON array of records']);
      expect(await count()).toBe(before);
    });

    it.each(bodies)('duplicates with %s', async (_name, options) => {
      const res = await t.http.request('POST', '/companies/duplicates', options);
      expect(res.status).toBe(400);
      expect(res.body.messages).toEqual(['Body must be a JSON object']);
    });
  });

  describe('upper-case UUIDs are UUIDs: accepted, stored and answered in lower case', () => {
    it('a client id on create one and create many', async () => {
      const id = randomUUID();
      const res = await t.http.post('/companies?depth=0', { id: id.toUpperCase(), name: 'Upper' });
      expect(res.status).toBe(201);
      expect(res.body.data.createCompany.id).toBe(id);
      const [row] = await t.db.query<{ id: string }>('SELECT id::text AS id FROM company WHERE id = $1', [id]);
      expect(row.id).toBe(id);

      const ids = [randomUUID(), randomUUID()];
      const many = await t.http.post(
        '/batch/companies?depth=0',
        ids.map((i, n) => ({ id: i.toUpperCase(), name: `Upper ${n}` })),
      );
      expect(many.status).toBe(201);
      expect(many.body.data.createCompanies.map((c: { id: string }) => c.id)).toEqual(ids);
    });

    it('the same id taken in another case is a duplicate (400), not a 500', async () => {
      const id = randomUUID();
      expect((await t.http.post('/companies', { id, name: 'Lower' })).status).toBe(201);
      const again = await t.http.post('/companies', { id: id.toUpperCase(), name: 'Upper' });
      expect(again.status).toBe(400);
      expect(again.body.messages.join(' ')).toMatch(/duplicate entry/);
    });

    it('in paths, filters, join columns and duplicates ids', async () => {
      const company = await createRecord(t.http, 'companies');
      const upper = (company.id as string).toUpperCase();
      const one = await t.http.get(`/companies/${upper}?depth=0`);
      expect(one.status).toBe(200);
      expect(one.body.data.company.id).toBe(company.id);

      for (const filter of [`id[eq]:${upper}`, `id[in]:[${upper}]`, `id[neq]:${upper}`, `companyId[eq]:${upper}`]) {
        const list = await t.http.get(
          `/${filter.startsWith('company') ? 'people' : 'companies'}?filter=${encodeURIComponent(filter)}&depth=0`,
        );
        expect({ filter, status: list.status }).toEqual({ filter, status: 200 });
      }
      const eq = await t.http.get(`/companies?filter=${encodeURIComponent(`id[eq]:${upper}`)}&depth=0`);
      expect(eq.body.data.companies.map((c: { id: string }) => c.id)).toEqual([company.id]);

      const person = await t.http.post('/people?depth=1', { companyId: upper });
      expect(person.status).toBe(201);
      expect(person.body.data.createPerson.companyId).toBe(company.id);
      expect(person.body.data.createPerson.company.id).toBe(company.id);
      const patched = await t.http.patch(`/people/${person.body.data.createPerson.id.toUpperCase()}?depth=0`, {
        companyId: upper,
      });
      expect(patched.status).toBe(200);
      expect(patched.body.data.updatePerson.companyId).toBe(company.id);

      const dup = await t.http.post('/companies/duplicates', { ids: [upper] });
      expect(dup.status).toBe(200);
      expect(dup.body.data).toHaveLength(1);

      const restore = await t.http.patch(`/companies/${upper}/restore?depth=0`);
      expect(restore.status).toBe(200);
      const del = await t.http.delete(`/companies/${upper}?soft_delete=true`);
      expect(del.status).toBe(200);
      expect(del.body.data.deleteCompany.id).toBe(company.id);
    });
  });

  describe('unknown routes under a collection: 400 in the envelope', () => {
    it.each([
      ['GET', '/people/{id}/toto'],
      ['GET', '/people/{id}/restore/more'],
      ['PATCH', '/people/{id}/toto'],
      ['DELETE', '/people/{id}/a/b'],
      ['POST', '/batch/people/extra'],
      ['GET', '/people/duplicates/x'],
    ])('%s %s', async (method, template) => {
      const path = template.replace('{id}', randomUUID());
      const res = await t.http.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        error: 'BadRequestException',
        messages: [`Query path '/rest${path}' invalid. Valid examples: /rest/people/id or /rest/people`],
      });
    });

    it.each([
      ['DELETE', '/people/{id}/restore'],
      ['POST', '/restore/people'],
      ['GET', '/batch/people'],
      ['POST', '/people/{id}'],
    ])('a method the path does not take: %s %s', async (method, template) => {
      const path = template.replace('{id}', randomUUID());
      const res = await t.http.request(method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('BadRequestException');
      expect(res.body.messages[0]).toMatch(new RegExp(`^${method} is not supported on '/rest${path}'`));
    });

    it('unknown top-level routes stay 404', async () => {
      for (const path of ['/../nothing', '/../rest-like/people']) {
        const res = await t.http.get(path);
        expect(res.status).toBe(404);
      }
    });
  });
});
