import { createHash } from 'node:crypto';
import { startTestApp, TestApp } from '../support/test-app';

async function until<T>(
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs: number,
): Promise<{ value: T; ms: number }> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() - start > timeoutMs) return { value, ms: Date.now() - start };
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('authentication', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it.each([
    ['no Authorization header', {}],
    ['a Basic scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['Bearer without token', { authorization: 'Bearer ' }],
    ['an unknown well-formed token', { authorization: `Bearer crm_${'A'.repeat(43)}` }],
    ['a malformed token', { authorization: 'Bearer not-a-token' }],
  ])('refuses %s with 401 UNAUTHENTICATED and WWW-Authenticate', async (_name, headers) => {
    const res = await t.http.get('/companies', { anonymous: true, headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(res.body).toEqual({ statusCode: 401, error: 'UNAUTHENTICATED', messages: [expect.any(String)] });
  });

  it('never accepts a token in the query string', async () => {
    for (const name of ['token', 'access_token', 'api_key']) {
      const res = await t.http.get(`/companies?${name}=${t.token}`, { anonymous: true });
      expect(res.status).toBe(401);
    }
  });

  it('refuses unknown routes and collections without a key (deny by default)', async () => {
    expect((await t.http.get('/nothing-here', { anonymous: true })).status).toBe(401);
    expect((await t.http.post('/batch/companies', [], { anonymous: true })).status).toBe(401);
  });

  it.each(['/open-api/core', '/docs', '/health', '/ready'])('serves %s without a key', async (path) => {
    const res = await t.http.get(path, { anonymous: true });
    expect(res.status).toBe(200);
  });

  it('returns a new key token once and stores only its hash', async () => {
    const created = await t.http.post('/apiKeys', { name: 'reporting', expiresAt: '2099-01-01T00:00:00.000Z' });
    expect(created.status).toBe(201);
    const { id, token } = created.body.data.createApiKey;
    expect(token).toMatch(/^crm_[A-Za-z0-9_-]{43}$/);
    const read = await t.http.get(`/apiKeys/${id}`);
    expect(read.body.data.apiKey).not.toHaveProperty('token');
    expect(JSON.stringify(read.body)).not.toContain(token);
    const [row] = await t.db.query('SELECT "tokenHash" FROM "apiKey" WHERE id = $1', [id]);
    expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = await t.http.get('/apiKeys');
    expect(JSON.stringify(listed.body)).not.toMatch(/tokenHash|crm_/);
    const use = await t.http.get('/companies', { headers: { authorization: `Bearer ${token}` } });
    expect(use.status).toBe(200);
  });

  it('stops a revoked key within 5 s', async () => {
    const { id, token } = (await t.http.post('/apiKeys', { name: 'to revoke', expiresAt: '2099-01-01T00:00:00Z' })).body
      .data.createApiKey;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect((await t.http.get('/companies', auth)).status).toBe(200);
    await t.http.patch(`/apiKeys/${id}`, { revokedAt: new Date().toISOString() });
    const { value, ms } = await until(
      () => t.http.get('/companies', auth),
      (r) => r.status === 401,
      6000,
    );
    expect(value.status).toBe(401);
    expect(value.body.messages).toEqual(['API key revoked']);
    expect(ms).toBeLessThan(5000);
  });

  it('stops a key at its expiry', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { token } = (await t.http.post('/apiKeys', { name: 'short lived', expiresAt })).body.data.createApiKey;
    const auth = { headers: { authorization: `Bearer ${token}` } };
    expect((await t.http.get('/companies', auth)).status).toBe(200);
    const { value, ms } = await until(
      () => t.http.get('/companies', auth),
      (r) => r.status === 401,
      6000,
    );
    expect(value.body.messages).toEqual(['API key expired']);
    expect(ms).toBeLessThan(4000);
  });

  it('a soft-deleted key stops working too', async () => {
    const { id, token } = (await t.http.post('/apiKeys', { name: 'deleted', expiresAt: '2099-01-01T00:00:00Z' })).body
      .data.createApiKey;
    await t.http.delete(`/apiKeys/${id}?soft_delete=true`);
    const auth = { headers: { authorization: `Bearer ${token}` } };
    const { value } = await until(
      () => t.http.get('/companies', auth),
      (r) => r.status === 401,
      6000,
    );
    expect(value.status).toBe(401);
  });
});
