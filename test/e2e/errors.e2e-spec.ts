import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

const LEAKS = /SELECT|INSERT|UPDATE .* SET|relation "|constraint|node_modules|\/src\/|at .*\.(ts|js):\d+/;

describe('errors: one envelope, clear 4xx, nothing leaked', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  function expectEnvelope(res: { status: number; body: Json; text: string }, status: number, error: string) {
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ statusCode: status, error, messages: expect.any(Array) });
    expect(res.body.messages.length).toBeGreaterThan(0);
    expect(res.text).not.toMatch(LEAKS);
  }

  it('malformed JSON: 400', async () => {
    const res = await t.http.post('/companies', undefined, {
      raw: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'BadRequestException');
  });

  it('a body that is not JSON: 415', async () => {
    const res = await t.http.post('/companies', undefined, {
      raw: 'name=Acme',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectEnvelope(res, 415, 'UnsupportedMediaTypeException');
  });

  it('a body over 10 MB: 413', async () => {
    const raw = JSON.stringify({ name: 'x'.repeat(10 * 1024 * 1024 + 10) });
    const res = await t.http.post('/companies', undefined, { raw, headers: { 'content-type': 'application/json' } });
    expectEnvelope(res, 413, 'PayloadTooLargeException');
  });

  it('a JSON primitive where a record is expected: 400 saying what is expected', async () => {
    const res = await t.http.post('/companies', undefined, {
      raw: '"Acme"',
      headers: { 'content-type': 'application/json' },
    });
    expectEnvelope(res, 400, 'BadRequestException');
    expect(res.body.messages).toEqual(['Body must be a JSON object']);
    const batch = await t.http.post('/batch/companies', { name: 'not an array' });
    expect(batch.body.messages).toEqual(['Body must be a JSON array of records']);
  });

  it('unknown collection, singular name, extra segment, unknown route', async () => {
    const unknown = await t.http.get('/foo');
    expectEnvelope(unknown, 400, 'BadRequestException');
    expect(unknown.body.messages).toEqual(["object 'foo' not found. eg: companies"]);
    const singular = await t.http.get('/company');
    expect(singular.body.messages).toEqual(["object 'company' not found. Did you mean 'companies'?"]);
    const batchUnknown = await t.http.post('/batch/persons', [{}]);
    expect(batchUnknown.body.messages).toEqual(["object 'persons' not found. eg: companies"]);
    const id = randomUUID();
    const extra = await t.http.get(`/companies/${id}/extra/segment`);
    expectEnvelope(extra, 400, 'BadRequestException');
    expect(extra.body.messages).toEqual([
      `Query path '/rest/companies/${id}/extra/segment' invalid. Valid examples: /rest/companies/id or /rest/companies`,
    ]);
    // a path a collection answers, with a method it does not take: 400 naming the methods it does
    const post = await t.http.request('POST', '/restore/companies');
    expectEnvelope(post, 400, 'BadRequestException');
    expect(post.body.messages).toEqual(["POST is not supported on '/rest/restore/companies'; it accepts PATCH"]);
    // a method outside the standard ones too, the same on Express and Fastify (whose router knows
    // nine methods: app.factory.ts adds the others)
    const propfind = await t.http.request('PROPFIND', '/companies');
    expectEnvelope(propfind, 400, 'BadRequestException');
    expect(propfind.body.messages).toEqual([
      "PROPFIND is not supported on '/rest/companies'; it accepts GET, POST, PATCH, PUT, DELETE",
    ]);
    expect((await t.http.request('PURGE', '/companies', { anonymous: true })).status).toBe(401);
    const outside = await fetch(t.baseUrl.replace('/rest', '/elsewhere'));
    expect(outside.status).toBe(404);
    expect(await outside.json()).toEqual({
      statusCode: 404,
      error: 'NotFoundException',
      messages: ['Cannot GET /elsewhere'],
    });
  });

  it('ids: not a UUID 400, missing record 404', async () => {
    const bad = await t.http.get('/companies/abc');
    expectEnvelope(bad, 400, 'BadRequestException');
    expect(bad.body.messages).toEqual(["'abc' is not a valid UUID"]);
    const missing = await t.http.get(`/companies/${randomUUID()}`);
    expectEnvelope(missing, 404, 'NotFoundException');
    expect(missing.body.messages).toEqual(['Record not found']);
    expect((await t.http.patch(`/companies/${randomUUID()}/restore`)).status).toBe(404);
    expect((await t.http.get('/companies/%E0%A4%A')).status).toBe(400);
  });

  it('query parameters: unknown, repeated, invalid depth and limit', async () => {
    expect((await t.http.get('/companies?foo=1')).body.messages).toEqual([
      "Unknown query parameter 'foo'; this route accepts filter, order_by, limit, starting_after, ending_before, depth, fields",
    ]);
    expect((await t.http.get('/companies?limit=1&limit=2')).body.messages).toEqual([
      "Query parameter 'limit' must be given once, as a string",
    ]);
    expect((await t.http.get('/companies?depth=3')).body.messages).toEqual([
      "'depth=3' parameter invalid. Allowed values are 0, 1, 2",
    ]);
    expect((await t.http.get('/companies?limit=abc')).body.messages).toEqual([
      "limit 'abc' is invalid. Should be an integer",
    ]);
    expect((await t.http.get('/companies?limit=-1')).status).toBe(400);
    expect((await t.http.delete(`/companies/${randomUUID()}?soft_delete=maybe`)).status).toBe(400);
  });

  it('database constraint errors become 400s naming the field', async () => {
    const email = `taken-${Date.now()}@example.com`;
    expect((await t.http.post('/people', { emails: { primaryEmail: email } })).status).toBe(201);
    const dup = await t.http.post('/people', { emails: { primaryEmail: email } });
    expectEnvelope(dup, 400, 'BadRequestException');
    expect(dup.body.messages).toEqual([
      `A duplicate entry was detected: emails.primaryEmail '${email}' is already used by another record`,
    ]);
  });

  it('a soft-deleted record frees its unique value', async () => {
    const email = `reuse-${Date.now()}@example.com`;
    const first = (await t.http.post('/people', { emails: { primaryEmail: email } })).body.data.createPerson;
    await t.http.delete(`/people/${first.id}?soft_delete=true`);
    expect((await t.http.post('/people', { emails: { primaryEmail: email } })).status).toBe(201);
  });
});
