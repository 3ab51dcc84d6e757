import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

/** Structured logs: one JSON line per request, with what an operator needs and never a secret. */
describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  const stream = { write: (chunk: string) => void lines.push(...chunk.split('\n').filter(Boolean)) };
  const requestLines = () => lines.map((l) => JSON.parse(l) as Record<string, Json>).filter((l) => l.req && l.res);

  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'info' }, { logStream: stream });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes one JSON line per request: method, path, status, duration, request id, api key id', async () => {
    lines.length = 0;
    const created = await t.http.post(
      '/companies?depth=0',
      { name: 'Logged' },
      { headers: { 'x-request-id': 'req-log-1' } },
    );
    expect(created.status).toBe(201);
    const listed = await t.http.get('/companies?filter=name[eq]:Logged');
    const refused = await t.http.get('/companies', { anonymous: true });
    const malformed = await t.http.post('/companies', undefined, {
      raw: '{oops',
      headers: { 'content-type': 'application/json' },
    });
    expect([listed.status, refused.status, malformed.status]).toEqual([200, 401, 400]);
    await new Promise((r) => setTimeout(r, 50));
    const logged = requestLines();
    expect(logged).toHaveLength(4);
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const [create, list, anonymous, bad] = logged;
    const apiKeyId = (await t.db.query<{ id: string }>(`SELECT "id" FROM "apiKey" WHERE "name" = 'e2e'`))[0].id;
    expect(create).toMatchObject({
      level: 30,
      requestId: 'req-log-1',
      req: { method: 'POST', path: '/rest/companies' },
      res: { statusCode: 201 },
      apiKeyId,
      msg: 'POST /rest/companies 201',
    });
    expect(typeof create.durationMs).toBe('number');
    expect(typeof create.time).toBe('number');
    expect(list).toMatchObject({ req: { method: 'GET', path: '/rest/companies' }, res: { statusCode: 200 }, apiKeyId });
    expect(list.requestId).toBe(listed.headers.get('x-request-id'));
    expect(anonymous).toMatchObject({ res: { statusCode: 401 } });
    expect(anonymous.apiKeyId).toBeUndefined();
    expect(bad).toMatchObject({ req: { method: 'POST' }, res: { statusCode: 400 } });
  });

  it('never logs the token, a secret, a body or a query string', async () => {
    lines.length = 0;
    const secret = `whsec-${Date.now()}-do-not-log`;
    const res = await t.http.post('/webhooks', {
      targetUrl: 'https://93.184.216.34/hook',
      secret,
      operations: ['*.*'],
    });
    expect(res.status).toBe(201);
    await t.http.get(`/people?filter=emails.primaryEmail[eq]:private-${secret}@example.com`);
    await t.http.get('/companies', { headers: { authorization: 'Bearer wrong-token-do-not-log' } });
    await new Promise((r) => setTimeout(r, 50));
    const all = lines.join('\n');
    expect(requestLines().length).toBe(3);
    expect(all).not.toContain(t.token);
    expect(all).not.toContain(secret);
    expect(all).not.toContain('wrong-token-do-not-log');
    expect(all).not.toContain('example.com');
    expect(all).not.toContain('93.184.216.34');
    expect(all.toLowerCase()).not.toContain('authorization');
  });
});
