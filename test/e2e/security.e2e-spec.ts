import { randomUUID } from 'node:crypto';
import { createApp } from '../../src/app.factory';
import { postgresForSuite } from '../support/embedded-postgres';
import { redisForSuite } from '../support/redis-server';
import { startTestApp, TEST_ENCRYPTION_KEY, TestApp } from '../support/test-app';

describe('transport hardening', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '5', RATE_LIMIT_PER_MINUTE: '1000' });
  });
  afterAll(async () => t?.close());

  it('security headers, no X-Powered-By, CORS off by default', async () => {
    const res = await t.http.get('/companies', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('strict-transport-security')).toContain('max-age');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('X-Request-Id: echoed when well-formed, generated otherwise', async () => {
    expect((await t.http.get('/health', { headers: { 'x-request-id': 'abc-123' } })).headers.get('x-request-id')).toBe(
      'abc-123',
    );
    const generated = (await t.http.get('/health', { headers: { 'x-request-id': 'bad id <script>' } })).headers.get(
      'x-request-id',
    );
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses over-long URLs with 414 in the error envelope', async () => {
    const res = await t.http.get(`/companies?filter=${'a'.repeat(9000)}`);
    expect(res.status).toBe(414);
    expect(res.body).toEqual({
      statusCode: 414,
      error: 'UriTooLongException',
      messages: ['URL longer than 8192 characters'],
    });
  });

  it('rate limits per API key with RateLimit headers and Retry-After', async () => {
    await new Promise((r) => setTimeout(r, 1100));
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof t.http.get>> | undefined;
    for (let i = 0; i < 8; i++) {
      const res = await t.http.get('/companies?depth=0');
      statuses.push(res.status);
      expect(res.headers.get('ratelimit-limit')).toBe('5');
      expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expect(Number(res.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      if (res.status === 429) limited = res;
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(limited!.body).toEqual({
      statusCode: 429,
      error: 'TooManyRequestsException',
      messages: ['Rate limit exceeded: 5 requests per second for this API key'],
    });
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.http.get('/companies?depth=0')).status).toBe(200);
  });
});

describe('CORS by origin list', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CORS_ORIGINS: 'https://app.example.com, https://admin.example.com' });
  });
  afterAll(async () => t?.close());

  it('allows the listed origins only', async () => {
    const allowed = await t.http.get('/companies', { headers: { origin: 'https://admin.example.com' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
    expect(allowed.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const other = await t.http.get('/companies', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${t.baseUrl}/companies`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
  });
});

describe('input hardening and configurable limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ MAX_FILTER_DEPTH: '2', MAX_BODY_DEPTH: '4' });
  });
  afterAll(async () => t?.close());

  it('filter nesting beyond MAX_FILTER_DEPTH is a 400', async () => {
    expect((await t.http.get('/companies?filter=and(or(name[eq]:a))')).status).toBe(200);
    const deep = await t.http.get('/companies?filter=and(or(not(name[eq]:a)))');
    expect(deep.status).toBe(400);
    expect(deep.body.messages[0]).toMatch(/nesting deeper than 2 levels/);
  });

  it('body nesting beyond MAX_BODY_DEPTH is a 400, and nothing is written', async () => {
    const res = await t.http.post('/auditLogs', { properties: { a: { b: { c: { d: 1 } } } } });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual(['Body is nested deeper than 4 levels']);
    expect((await t.http.get('/auditLogs?filter=name[eq]:x')).body.totalCount).toBe(0);
  });

  it('prototype-pollution keys, NUL characters and non-finite numbers are refused', async () => {
    const proto = await t.http.post('/companies', undefined, {
      raw: '{"name":"x","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.body.messages).toEqual(['property __proto__ is not allowed']);
    const nested = await t.http.post('/auditLogs', undefined, {
      raw: '{"properties":{"constructor":{"prototype":{}}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(nested.body.messages).toEqual(['property properties.constructor is not allowed']);
    expect((await t.http.post('/companies', { name: 'a\u0000b' })).body.messages).toEqual([
      'name must not contain NUL characters',
    ]);
    const huge = await t.http.post('/companies', undefined, {
      raw: '{"employees": 1e400}',
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.body.messages).toEqual(['employees must be a finite number']);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('path tricks never reach a record', async () => {
    for (const path of [
      '/companies/..%2F..%2Fetc%2Fpasswd',
      '/companies/%2e%2e',
      '/people/%00',
      '/companies/1%2F2/restore',
    ]) {
      const res = await t.http.get(path);
      expect([400, 404]).toContain(res.status);
      expect(res.body.statusCode).toBe(res.status);
    }
  });
});

/**
 * Two instances on one PostgreSQL and one Redis share the counters of a key (TEST_DATABASE_URL
 * and TEST_REDIS_URL, or servers of this file's own).
 */
const ownPostgres = postgresForSuite('security-shared-rate-limits');
const redis = redisForSuite('security-shared-rate-limits-redis');
(redis.enabled ? ownPostgres.describe : describe.skip)('rate limit shared across instances (Redis)', () => {
  let t: TestApp;
  beforeAll(async () => {
    await ownPostgres.beforeAll();
    await redis.beforeAll();
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await redis.afterAll();
    await ownPostgres.afterAll();
  });

  it('a key gets its per-minute budget once, whichever instance it calls', async () => {
    const env = {
      DATABASE_URL: t.database.url!,
      METRICS_PORT: '0',
      ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      BOOTSTRAP_API_KEY: 'false',
      LOG_LEVEL: 'silent',
      WEBHOOK_DISPATCH: 'false',
      ...redis.env(),
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_PER_MINUTE: '20',
    };
    const apps = await Promise.all([createApp({ env }), createApp({ env })]);
    try {
      const urls: string[] = [];
      for (const { app } of apps) {
        await app.listen(0, '127.0.0.1');
        urls.push(`${await app.getUrl()}/rest`);
      }
      // a fresh key, so that earlier runs leave no counts in Redis
      const { token } = (
        await t.http.post('/apiKeys', { name: `shared-${randomUUID()}`, expiresAt: '2099-01-01T00:00:00Z' })
      ).body.data.createApiKey;
      const statuses: number[] = [];
      for (let i = 0; i < 15; i++) {
        for (const url of urls) {
          statuses.push(
            (await fetch(`${url}/companies?depth=0`, { headers: { authorization: `Bearer ${token}` } })).status,
          );
        }
      }
      // 30 requests split over two instances: each saw 15 (< 20), yet the shared budget is 20
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    } finally {
      await Promise.all(apps.map(({ app }) => app.close()));
    }
  });
});
