import { startTestApp, TestApp } from '../support/test-app';

/** helmet's headers for HTML documents only, which JSON answers leave out. */
const DOCUMENT_ONLY = [
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

const API_SECURITY = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const pick = (headers: Headers, names: string[]) => Object.fromEntries(names.map((name) => [name, headers.get(name)]));

describe('response headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('a JSON answer: the API security headers, its request id, rate limits, type and length; no document headers', async () => {
    const created = await t.http.post('/people?depth=0', { name: { firstName: 'Ada', lastName: 'Lovelace' } });
    const cases = [
      await t.http.get(`/people/${created.body.data.createPerson.id}?depth=0`),
      await t.http.get('/companies?limit=1'),
      await t.http.post('/people/duplicates?depth=0', { data: [{ name: { firstName: 'Ada', lastName: 'Lovelace' } }] }),
      await t.http.get('/people/00000000-0000-4000-8000-000000000000'), // 404
      await t.http.get('/nope'), // 400 from the catch-all
      await t.http.get('/people', { anonymous: true }), // 401
    ];
    for (const res of cases) {
      expect(pick(res.headers, Object.keys(API_SECURITY))).toEqual(API_SECURITY);
      expect(pick(res.headers, [...DOCUMENT_ONLY, 'x-powered-by'])).toEqual(
        Object.fromEntries([...DOCUMENT_ONLY, 'x-powered-by'].map((n) => [n, null])),
      );
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(res.text));
    }
    expect(cases[0].headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(cases.slice(0, 5).map((r) => r.headers.get('ratelimit-limit'))).toEqual(Array(5).fill('1000000'));
  });

  it("Swagger UI's pages: helmet's full set for documents", async () => {
    for (const path of ['/docs', '/docs/index.html']) {
      const res = await t.http.get(path, { anonymous: true });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      for (const name of [...DOCUMENT_ONLY, 'strict-transport-security', 'x-content-type-options'])
        expect(res.headers.get(name)).not.toBeNull();
    }
  });
});
