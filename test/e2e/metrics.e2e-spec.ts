import fc from 'fast-check';
import { createServer, request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { METRIC_CATALOG, SERIES_BUDGET } from '../../src/core/metrics/metric-catalog';
import { metricNamesIn, observabilityQueries } from '../support/dashboard-queries';
import { announceSkippedSuite } from '../support/skipped-suites';
import { SseClient } from '../support/sse-client';
import {
  freePort,
  manifestProblems,
  hasPromtool,
  parsePrometheusText,
  promtoolCheckMetrics,
  Scrape,
  valueOf,
} from '../support/prometheus-text';
import { startTestApp, TestApp } from '../support/test-app';

const TOKEN = 'metrics-test-token-0123456789';

/** The metrics listener of `t`, scraped as Prometheus would (with the token). */
async function scrape(port: number, accept?: string): Promise<{ status: number; type: string | null; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${TOKEN}`, ...(accept ? { accept } : {}) },
  });
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** A raw request (any method, any path: what a client that is not well-behaved sends). */
function raw(baseUrl: string, method: string, path: string): Promise<number> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same traffic on any instance: every kind of route, then a seeded fuzz of odd paths and methods. */
async function traffic(t: TestApp): Promise<void> {
  const person = (await t.http.post('/people', { name: { firstName: 'Ada', lastName: 'Lovelace' } })).body.data
    .createPerson;
  await t.http.get('/people?limit=5');
  await t.http.get(`/people/${person.id}`);
  await t.http.patch(`/people/${person.id}`, { jobTitle: 'Engineer' });
  await t.http.get('/people?filter=jobTitle[eq]:"Engineer"&order_by=createdAt');
  await t.http.post('/batch/companies', [{ name: 'Acme' }, { name: 'Globex' }]);
  await t.http.post('/companies', { name: 7 }); // 400
  await t.http.get('/people/00000000-0000-4000-8000-000000000000'); // 404
  await t.http.get('/people', { anonymous: true }); // 401
  await t.http.get('/changes/head');
  await t.http.delete(`/people/${person.id}`);
  await t.http.get('/health');
  await t.http.get('/metrics'); // the API port has no metrics route: an unknown object, 400
  const segments = fc.constantFrom('people', 'companies', 'batch', 'restore', '123', 'a%20b', '%C3%A9', 'x'.repeat(40));
  const samples = fc.sample(
    fc.record({
      method: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'PROPFIND', 'HEAD'),
      path: fc.array(fc.oneof(segments, fc.uuid(), fc.stringMatching(/^[a-z0-9]{1,12}$/)), { maxLength: 4 }),
      query: fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{1,8}$/), { nil: undefined }),
      outside: fc.boolean(),
    }),
    { numRuns: 120, seed: 2039 },
  );
  for (const s of samples) {
    const path = `${s.outside ? '' : '/rest'}/${s.path.join('/')}${s.query ? `?${s.query}` : ''}`;
    await raw(t.baseUrl, s.method, path);
  }
}

function requestLabels(scrape: Scrape): string[] {
  return scrape.samples
    .filter((s) => s.name === 'http_server_request_duration_seconds_count')
    .map((s) => `${s.labels.http_request_method} ${s.labels.http_route} ${s.labels.http_response_status_code}`)
    .sort();
}

describe('metrics on their own listener (API.md section 20)', () => {
  const apps: { adapter: string; t: TestApp; port: number }[] = [];
  beforeAll(async () => {
    for (const adapter of ['express', 'fastify']) {
      const port = await freePort();
      const t = await startTestApp({
        HTTP_ADAPTER: adapter,
        METRICS_PORT: String(port),
        METRICS_TOKEN: TOKEN,
        METRICS_REFRESH_MS: '200',
        WEBHOOK_RETRY_SCHEDULE_MS: Array(10).fill('300').join(','),
        WEBHOOK_POLL_MS: '50',
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', // the receiver listens on 127.0.0.1
      });
      apps.push({ adapter, t, port });
    }
    for (const { t } of apps) await traffic(t);
  });
  afterAll(async () => {
    for (const { t } of apps) {
      t.app.getHttpServer().closeAllConnections();
      await t.close();
    }
  });

  it('answers only with the token, in Prometheus text or OpenMetrics; never on the API port', async () => {
    const { port, t } = apps[0];
    expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } }))
        .status,
    ).toBe(401);
    const text = await scrape(port);
    expect(text.status).toBe(200);
    expect(text.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const open = await scrape(port, 'application/openmetrics-text; version=1.0.0,text/plain;q=0.5');
    expect(open.type).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    expect(open.text.trimEnd().endsWith('# EOF')).toBe(true);
    // on the API port /rest/metrics is what any unknown route is (API.md section 2: an unknown object)
    const api = await t.http.get('/metrics');
    expect(api.status).toBe(400);
    expect(api.body.messages).toEqual(["object 'metrics' not found. eg: companies"]);
  });

  it('labels requests by method, route template and status, the same on Express and Fastify', async () => {
    const [express, fastify] = await Promise.all(
      apps.map(async ({ port }) => parsePrometheusText((await scrape(port)).text)),
    );
    // methods outside the standard ones too (PROPFIND: the catch-all's 401 and 400 on both)
    const labels = requestLabels(express);
    expect(labels).toEqual(requestLabels(fastify));
    for (const scrape of [express, fastify]) expect(requestLabels(scrape)).toContain('_OTHER unmatched 404');
    expect(labels).toEqual(
      expect.arrayContaining([
        'POST /rest/people 201',
        'GET /rest/people 200',
        'GET /rest/people 401',
        'GET /rest/people/{id} 200',
        'GET /rest/people/{id} 404',
        'PATCH /rest/people/{id} 200',
        'DELETE /rest/people/{id} 200',
        'POST /rest/batch/companies 201',
        'POST /rest/companies 400',
        'GET /rest/changes/head 200',
        'GET unmatched 404',
        'GET unmatched 400',
      ]),
    );
    for (const label of labels) expect(label).not.toMatch(/\?|[0-9a-f]{8}-|\/\d|x{40}/);
  });

  it('matches the manifest: declared metrics and labels, bounded values, within the series budget, promtool-clean', async () => {
    const { port } = apps[0];
    const { text } = await scrape(port);
    const parsed = parsePrometheusText(text);
    expect(manifestProblems(parsed)).toEqual([]);
    expect(parsed.samples.length).toBeLessThanOrEqual(SERIES_BUDGET);
    for (const name of Object.keys(METRIC_CATALOG).filter((n) => !n.startsWith('crm_replica'))) {
      expect([name, parsed.types.has(name)]).toEqual([name, true]);
    }
    expect(valueOf(parsed, 'db_client_connection_max', { db_client_connection_pool_name: 'primary' })).toBeGreaterThan(
      0,
    );
    expect(
      valueOf(parsed, 'db_client_operation_duration_seconds_count', { db_operation_name: 'insert' }),
    ).toBeGreaterThan(0);
    expect(valueOf(parsed, 'nodejs_eventloop_lag_p99_seconds')).toBeDefined();
    if (hasPromtool()) expect(promtoolCheckMetrics(text)).toBe('');
    else if (process.env.REQUIRE_PROMTOOL) throw new Error('promtool is required (REQUIRE_PROMTOOL) and missing');
    else announceSkippedSuite('metrics: promtool check metrics', 'no promtool', 'sudo apt-get install -y prometheus');
  });

  it('has every metric the dashboards and alerts read in a real scrape', async () => {
    const parsed = parsePrometheusText((await scrape(apps[1].port)).text);
    const scraped = new Set([...parsed.types.keys(), ...parsed.samples.map((s) => s.name)]);
    const queries = observabilityQueries();
    expect(queries.length).toBeGreaterThan(20);
    const missing = queries.flatMap(({ source, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !scraped.has(name) && !scraped.has(name.replace(/_(bucket|sum|count)$/, '')))
        .map((name) => `${source}: ${name}`),
    );
    expect(missing).toEqual([]);
  });

  it('shows the outbox backing up while a receiver fails, and emptying once it recovers', async () => {
    const { t, port } = apps[0];
    let failing = true;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(failing ? 500 : 200).end());
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const hook = (await t.http.post('/webhooks', { targetUrl: target, operations: ['company.created'], secret: 's' }))
      .body.data.createWebhook;
    try {
      const outbox = async () => {
        const parsed = parsePrometheusText((await scrape(port)).text);
        return {
          pending: valueOf(parsed, 'crm_webhook_outbox_pending_deliveries'),
          age: valueOf(parsed, 'crm_webhook_outbox_oldest_pending_age_seconds') ?? -1,
          retries: valueOf(parsed, 'crm_webhook_deliveries_total', { outcome: 'retry' }) ?? 0,
          delivered: valueOf(parsed, 'crm_webhook_deliveries_total', { outcome: 'delivered' }) ?? 0,
        };
      };
      const until = async (done: (o: Awaited<ReturnType<typeof outbox>>) => boolean) => {
        let seen = await outbox();
        for (let i = 0; i < 100 && !done(seen); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          seen = await outbox();
        }
        return seen;
      };
      expect((await t.http.post('/companies', { name: 'Outbox' })).status).toBe(201);
      const failingSeen = await until((o) => o.age >= 1.5 && o.retries >= 2);
      expect(failingSeen.pending).toBe(1);
      expect(failingSeen.age).toBeGreaterThanOrEqual(1.5);
      expect(failingSeen.retries).toBeGreaterThanOrEqual(2);
      expect(failingSeen.delivered).toBe(0);
      const ageBefore = failingSeen.age;
      failing = false;
      const recovered = await until((o) => o.pending === 0 && o.delivered === 1);
      expect(recovered).toMatchObject({ pending: 0, age: 0, delivered: 1 });
      expect(ageBefore).toBeGreaterThan(recovered.age);
      // every attempt timed: as many retry durations as retries
      const durations = parsePrometheusText((await scrape(port)).text);
      expect(valueOf(durations, 'crm_webhook_delivery_duration_seconds_count', { outcome: 'retry' })).toBe(
        recovered.retries,
      );
    } finally {
      await t.http.delete(`/webhooks/${hook.id}`);
      await new Promise((resolve) => receiver.close(resolve));
    }
  }, 60_000);

  it('shows a stalled change stream behind the head, and no open stream once it closes', async () => {
    const { t, port } = apps[0];
    const since = (await t.http.get('/changes/head')).body.data.token;
    const stream = await SseClient.open(
      `${t.baseUrl}/changes/stream?since=${since}&collections=companies`,
      { authorization: `Bearer ${t.token}` },
      true,
    );
    const filler = 'x'.repeat(3000);
    for (let b = 0; b < 30; b++) {
      const batch = Array.from({ length: 200 }, (_, i) => ({ name: `Stalled ${b}-${i} ${filler}` }));
      expect((await t.http.post('/batch/companies?depth=0', batch)).status).toBe(201);
    }
    const behind = async () => {
      const parsed = parsePrometheusText((await scrape(port)).text);
      return [
        valueOf(parsed, 'crm_change_streams_open') ?? -1,
        valueOf(parsed, 'crm_change_stream_max_lag_changes') ?? -1,
      ];
    };
    let seen = await behind();
    for (let i = 0; i < 50 && seen[1] < 1000; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      seen = await behind();
    }
    expect(seen[0]).toBe(1);
    expect(seen[1]).toBeGreaterThanOrEqual(1000);
    // the stream's LISTEN connection is one of its own, outside the pool: pool `direct`
    const direct = async () =>
      valueOf(parsePrometheusText((await scrape(port)).text), 'db_client_connections', {
        db_client_connection_pool_name: 'direct',
        db_client_connection_state: 'used',
      });
    expect(await direct()).toBe(process.env.TEST_DATABASE_URL ? 1 : undefined); // PGlite: no connection of its own
    if (process.env.TEST_DATABASE_URL) {
      // lost (terminated by the server), it is no longer counted
      await t.db.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'crm-record-service-listen' AND datname = current_database()",
      );
      let left = await direct();
      // (polled closely: the next keep-alive tick, within 15 s, listens again)
      for (let i = 0; i < 200 && left !== 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        left = await direct();
      }
      expect(left).toBe(0);
    }
    stream.close();
    for (let i = 0; i < 50 && seen[0] !== 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await behind();
    }
    expect(seen).toEqual([0, 0]);
  }, 120_000);
});
