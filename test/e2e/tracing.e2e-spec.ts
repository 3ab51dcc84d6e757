import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { Client } from 'pg';
import {
  ChildServer,
  createApiKeyWithCli,
  freePort,
  killAllChildren,
  ROOT,
  serverEnv,
  sleep,
} from '../support/child-server';
import { postgresForSuite } from '../support/embedded-postgres';
import type { Json } from '../support/http';
import { redisForSuite } from '../support/redis-server';
import { startTestApp, TestApp } from '../support/test-app';
import { createTestDatabase, TestDatabase } from '../support/test-database';

/**
 * Traces (API.md section 20): with OTEL_EXPORTER_OTLP_ENDPOINT set, a request continues an
 * incoming `traceparent`, its SQL statements (no literal values) and Redis commands are child
 * spans, the webhook delivery it causes continues its trace (through the outbox row) and sends
 * `traceparent` to the receiver, and log lines carry trace_id / span_id. The SDK hooks `require`,
 * which jest's module registry bypasses: the service runs as a child process (src/main.ts), once
 * per HTTP adapter, exporting to an OTLP/HTTP receiver of the test's own.
 */
const postgres = postgresForSuite('tracing');
const redis = redisForSuite('tracing-redis');

interface ExportedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;

type OtlpAttribute = { key: string; value: Record<string, unknown> };
const attributesOf = (list: OtlpAttribute[] = []) =>
  Object.fromEntries(list.map(({ key, value }) => [key, Object.values(value)[0]]));

/** An OTLP/HTTP receiver: the spans of every `POST /v1/traces` (JSON, as the exporter sends them). */
class Collector {
  readonly spans: ExportedSpan[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        for (const rs of JSON.parse(body).resourceSpans ?? []) {
          const service = String(attributesOf(rs.resource?.attributes)['service.name']);
          for (const ss of rs.scopeSpans ?? [])
            for (const s of ss.spans ?? [])
              this.spans.push({ ...s, service, attributes: attributesOf(s.attributes) } as ExportedSpan);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** A webhook receiver that keeps every request's headers and body. */
class Receiver {
  readonly received: { headers: IncomingHttpHeaders; body: Json }[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.received.push({ headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook?token=secret-in-query`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/** The JSON log lines a child server has written so far. */
const logLines = (output: unknown) =>
  String(output)
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Json);

/** The first value of `find()` that is defined, polled until `timeoutMs`. */
async function eventually<T>(find: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() - start > timeoutMs) throw new Error(`not seen after ${timeoutMs} ms: ${what}`);
    await sleep(50);
  }
}

/** The standard output of `node -e code` run through ts-node in the repository, killed after 20 s (then it rejects). */
async function runNode(code: string, env: Record<string, string>): Promise<string> {
  const options = { cwd: ROOT, timeout: 20_000, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true', ...env } };
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-e', code],
    options,
  );
  return stdout;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');
const ADAPTERS = ['express', 'fastify'] as const;

postgres.describe('tracing (OpenTelemetry, OTLP/HTTP)', () => {
  let database: TestDatabase;
  let token: string;
  let collector: Collector;
  let receiver: Receiver;
  const servers = new Map<string, ChildServer>();

  beforeAll(async () => {
    await Promise.all([postgres.beforeAll(), redis.enabled ? redis.beforeAll() : undefined]);
    database = await createTestDatabase();
    [token, collector, receiver] = await Promise.all([
      createApiKeyWithCli(database.url!, 'tracing'), // also applies the migrations
      new Collector().start(),
      new Receiver().start(),
    ]);
    // `unsampled`: Express keeping no trace of its own (10 % sampling at its limit, 0)
    const instances = [
      ...ADAPTERS.map((adapter) => ({ name: adapter as string, adapter, sampling: {} })),
      {
        name: 'unsampled',
        adapter: 'express',
        sampling: { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' },
      },
    ];
    await Promise.all(
      instances.map(async ({ name, adapter, sampling }) => {
        const env = serverEnv(database.url!, await freePort(), {
          HTTP_ADAPTER: adapter,
          LOG_LEVEL: 'info',
          METRICS_PORT: '0',
          WEBHOOK_DISPATCH: 'true',
          WEBHOOK_POLL_MS: '100',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
          OTEL_SERVICE_NAME: `crm-${name}`,
          OTEL_BSP_SCHEDULE_DELAY: '100',
          ...sampling,
          ...(redis.enabled ? redis.env() : {}),
        });
        servers.set(name, await ChildServer.start(env));
      }),
    );
    const created = await fetch(`${servers.get('express')!.baseUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ targetUrl: receiver.url, operations: ['person.created'], secret: 'whsec-tracing' }),
    });
    expect(created.status).toBe(201);
  });

  afterAll(async () => {
    await killAllChildren();
    await Promise.all([collector?.stop(), receiver?.stop()]);
    await database?.drop();
    await Promise.all([postgres.afterAll(), redis.enabled ? redis.afterAll() : undefined]);
  });

  it.each(ADAPTERS)(
    '%s: a request continues its traceparent into its SQL and Redis spans, its log line and the webhook it causes',
    async (adapter) => {
      const server = servers.get(adapter)!;
      const [traceId, callerSpanId] = [hex(16), hex(8)];
      const distinctive = `Tracy${hex(6)}`;
      const headers = {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      };
      const response = await fetch(`${server.baseUrl}/people?depth=0`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: { firstName: distinctive, lastName: 'Spanner' }, city: distinctive }),
      });
      expect(response.status).toBe(201);
      const person = ((await response.json()) as Json).data.createPerson;

      // the request's span: a child of the caller's, named after the route
      const ofTrace = () => collector.spans.filter((s) => s.traceId === traceId);
      const request = await eventually(
        () => ofTrace().find((s) => s.kind === SERVER),
        `the server span of trace ${traceId}`,
      );
      expect(request).toMatchObject({
        service: `crm-${adapter}`,
        parentSpanId: callerSpanId,
        name: 'POST /rest/people',
        attributes: { 'http.route': '/rest/people', 'http.response.status_code': 201 },
      });

      // the webhook: the same trace, through the outbox row, the delivery span and its POST
      const delivery = await eventually(
        () => receiver.received.find((r) => r.body.record?.id === person.id),
        'the webhook delivery',
      );
      const [version, deliveredTrace, postSpanId] = String(delivery.headers.traceparent).split('-');
      expect([version, deliveredTrace]).toEqual(['00', traceId]);
      const pg = new Client({ connectionString: database.url });
      await pg.connect();
      const { rows } = await pg
        .query(`SELECT "traceParent" FROM "webhookDelivery" WHERE "payload" -> 'record' ->> 'id' = $1`, [person.id])
        .finally(() => pg.end());
      expect(rows).toEqual([{ traceParent: `00-${traceId}-${request.spanId}-01` }]);
      const deliver = await eventually(() => ofTrace().find((s) => s.name === 'webhook deliver'), 'the delivery span');
      expect(deliver).toMatchObject({
        kind: CONSUMER,
        parentSpanId: request.spanId,
        attributes: { 'webhook.delivery.id': delivery.headers['x-delivery-id'], 'webhook.outcome': 'delivered' },
      });
      const post = await eventually(() => ofTrace().find((s) => s.spanId === postSpanId), 'the POST span');
      expect(post).toMatchObject({ kind: CLIENT, parentSpanId: deliver.spanId });
      expect(post.attributes['url.full']).toBe(receiver.url.split('?')[0]); // no query string: it may hold a token

      // its statements: children of the request, placeholders and never a value
      const statements = ofTrace().filter(
        (s) => s.attributes['db.system.name'] === 'postgresql' && s.parentSpanId === request.spanId,
      );
      expect(statements.map((s) => s.attributes['db.query.text'])).toContainEqual(
        expect.stringMatching(/^WITH .*INSERT INTO "person" .*\$1/),
      );
      // attribute values are cut at 2,048 characters (sdk.ts): the create's statement runs to 6-7 kB
      const insert = statements.find((s) => /^WITH .*INSERT INTO "person"/.test(String(s.attributes['db.query.text'])));
      expect(String(insert!.attributes['db.query.text']).length).toBe(2048);
      if (redis.enabled) {
        const commands = ofTrace().filter((s) => s.attributes['db.system.name'] === 'redis');
        expect(commands.length).toBeGreaterThan(0);
        for (const c of commands) expect(c.attributes['db.query.text']).toMatch(/^[a-z]+$/); // the command alone
      }

      // a read: named after its template, never after the id
      const read = { ...headers, traceparent: `00-${hex(16)}-${hex(8)}-01` };
      expect((await fetch(`${server.baseUrl}/people/${person.id}?depth=0`, { headers: read })).status).toBe(200);
      const readTrace = read.traceparent.split('-')[1];
      const get = await eventually(
        () => collector.spans.find((s) => s.traceId === readTrace && s.kind === SERVER),
        'the span of the read',
      );
      expect(get).toMatchObject({ name: 'GET /rest/people/{id}', attributes: { 'http.route': '/rest/people/{id}' } });

      // no span of the whole run holds a value of the request
      expect(JSON.stringify(collector.spans)).not.toContain(distinctive);
      expect(JSON.stringify(collector.spans)).not.toContain('secret-in-query');

      // the request's log line carries its trace and span ids
      const line = await eventually(
        () => logLines(server.output).find((l) => l.req?.path === '/rest/people' && l.trace_id === traceId),
        'the request log line',
      );
      expect(line.span_id).toBe(request.spanId);
      // so does the line of a request whose client went away first: its response's `close` then
      // comes from the socket, outside the request's context (response-done.ts runs it in it)
      const stream = { ...headers, traceparent: `00-${hex(16)}-${hex(8)}-01` };
      const streamTrace = stream.traceparent.split('-')[1];
      const aborted = new AbortController();
      const head = (await (await fetch(`${server.baseUrl}/changes/head`, { headers })).json()) as Json;
      const open = await fetch(`${server.baseUrl}/changes/stream?since=${head.data.token}`, {
        headers: stream,
        signal: aborted.signal,
      });
      expect(open.status).toBe(200);
      aborted.abort();
      const abortedLine = await eventually(
        () => logLines(server.output).find((l) => l.req?.path === '/rest/changes/stream' && l.aborted === true),
        'the aborted stream log line',
      );
      expect(abortedLine.trace_id).toBe(streamTrace);
    },
  );

  it('an import continues the trace of the request that queued it: its run, its statements and the webhooks of its records', async () => {
    const server = servers.get('express')!;
    const [traceId, callerSpanId] = [hex(16), hex(8)];
    const city = `Imported${hex(6)}`;
    const response = await fetch(`${server.baseUrl}/people/import?webhooks=records`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'text/csv',
        prefer: 'wait=30',
        traceparent: `00-${traceId}-${callerSpanId}-01`,
      },
      body: `name.firstName,name.lastName,city\nAda,Lovelace,${city}\nGrace,Hopper,${city}\n`,
    });
    expect(response.status).toBe(200);
    const job = ((await response.json()) as Json).data.import;
    expect(job).toMatchObject({ state: 'completed', rows: { created: 2 } });

    const ofTrace = () => collector.spans.filter((s) => s.traceId === traceId);
    const request = await eventually(() => ofTrace().find((s) => s.kind === SERVER), 'the server span of the import');
    expect(request).toMatchObject({ parentSpanId: callerSpanId, name: 'POST /rest/{plural}/import' });
    // the run: on whichever instance claimed the job, a child of the request's span
    const run = await eventually(() => ofTrace().find((s) => s.name === 'import run'), 'the span of the run');
    expect(run).toMatchObject({
      kind: CONSUMER,
      parentSpanId: request.spanId,
      attributes: { 'crm.import.id': job.id, 'crm.import.collection': 'people', 'crm.import.operation': 'create' },
    });
    // its statements (the insert of the records among them), children of the run
    const statements = ofTrace().filter(
      (s) => s.attributes['db.system.name'] === 'postgresql' && s.parentSpanId === run.spanId,
    );
    expect(statements.map((s) => String(s.attributes['db.query.text']))).toContainEqual(
      expect.stringMatching(/INSERT INTO "person"/),
    );
    // the webhook of each record: its delivery continues the run, and its POST sends the trace on
    const deliveries = await eventually(() => {
      const found = receiver.received.filter((r) => r.body.record?.city === city);
      return found.length === 2 ? found : undefined;
    }, 'the webhooks of the imported records');
    for (const delivery of deliveries) expect(String(delivery.headers.traceparent).split('-')[1]).toBe(traceId);
    const deliver = await eventually(() => ofTrace().find((s) => s.name === 'webhook deliver'), 'a delivery span');
    expect(deliver.parentSpanId).toBe(run.spanId);
  });

  it('a request whose new trace is not kept has none; one that continues an unsampled caller passes its trace id on', async () => {
    const server = servers.get('unsampled')!;
    const pg = new Client({ connectionString: database.url });
    await pg.connect();
    const outboxTrace = async (id: string) =>
      (
        await pg.query(`SELECT "traceParent" FROM "webhookDelivery" WHERE "payload" -> 'record' ->> 'id' = $1`, [id])
      ).rows.map((r) => r.traceParent as string | null);
    try {
      const create = async (headers: Record<string, string>) => {
        const response = await fetch(`${server.baseUrl}/people?depth=0`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ city: 'Unsampled' }),
        });
        expect(response.status).toBe(201);
        return ((await response.json()) as Json).data.createPerson.id as string;
      };
      // its own trace, not kept: no context at all, so nothing reaches the outbox row
      expect(await outboxTrace(await create({}))).toEqual([null]);
      // the caller's unsampled trace: continued through the body's listeners to the outbox row
      const traceId = hex(16);
      const continued = await create({ traceparent: `00-${traceId}-${hex(8)}-00` });
      const [traceParent] = await outboxTrace(continued);
      expect(traceParent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-00$`));
      const delivery = await eventually(
        () => receiver.received.find((r) => r.body.record?.id === continued),
        'the delivery of the continued trace',
      );
      expect(String(delivery.headers.traceparent).split('-')[1]).toBe(traceId);
      expect(collector.spans.filter((s) => s.traceId === traceId)).toEqual([]); // nothing recorded
    } finally {
      await pg.end();
    }
  });

  it('on SIGTERM, the spans not sent yet are exported before the process exits', async () => {
    // a batch delay of an hour: only the shutdown's flush can send this request's spans
    const server = await ChildServer.start(
      serverEnv(database.url!, await freePort(), {
        METRICS_PORT: '0',
        WEBHOOK_DISPATCH: 'false',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
        OTEL_SERVICE_NAME: 'crm-shutdown',
        OTEL_BSP_SCHEDULE_DELAY: '3600000',
      }),
    );
    const traceId = hex(16);
    const response = await fetch(`${server.baseUrl}/people?limit=1&depth=0`, {
      headers: { authorization: `Bearer ${token}`, traceparent: `00-${traceId}-${hex(8)}-01` },
    });
    expect(response.status).toBe(200);
    await sleep(200); // the server span ends on the response's close
    expect(collector.spans.filter((s) => s.traceId === traceId)).toEqual([]);
    server.process.kill('SIGTERM');
    expect(await server.exited).toEqual(expect.objectContaining({ code: 0 }));
    const spans = collector.spans.filter((s) => s.traceId === traceId);
    expect(spans.map((s) => s.service)).toEqual(spans.map(() => 'crm-shutdown'));
    expect(spans).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: SERVER, name: 'GET /rest/people' }),
        expect.objectContaining({ kind: CLIENT, name: expect.stringMatching(/^pg\.query/) }),
      ]),
    );
  });

  it('the export worker does not keep a process up that has nothing left to do', async () => {
    // the SDK started as the service starts it, and nothing else: the process exits (killed
    // after 20 s otherwise, and execFile then rejects)
    const stdout = await runNode(
      `require('./src/core/tracing/register'); console.log(require('./src/core/tracing/tracing').tracingOn())`,
      { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url },
    );
    expect(stdout.trim()).toBe('true');
  });

  it('with the endpoint unset, no SDK is loaded and no trace context is written to the outbox or sent', async () => {
    // the module main.ts imports first loads nothing of OpenTelemetry but its API
    const stdout = await runNode(
      `require('./src/core/tracing/register'); require('./src/core/tracing/tracing'); require('./src/core/tracing/http-route'); require('./src/core/tracing/server-spans');
       console.log(JSON.stringify([...new Set(Object.keys(require.cache).map((f) => /@opentelemetry\\/([^/]+)/.exec(f)?.[1]).filter(Boolean))]))`,
      { OTEL_EXPORTER_OTLP_ENDPOINT: '' },
    );
    expect(JSON.parse(stdout)).toEqual(['api']);

    // the service without the SDK (this process never started it), on the same database and webhook
    const t: TestApp = await startTestApp({ DATABASE_URL: database.url!, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    try {
      const traceId = hex(16);
      const created = await t.http.post(
        '/people?depth=0',
        { city: 'Untraced' },
        {
          headers: { traceparent: `00-${traceId}-${hex(8)}-01` },
        },
      );
      expect(created.status).toBe(201);
      const id = created.body.data.createPerson.id;
      const delivery = await eventually(() => receiver.received.find((r) => r.body.record?.id === id), 'delivery');
      const [row] = await t.db.query<{ traceParent: string | null }>(
        `SELECT "traceParent" FROM "webhookDelivery" WHERE "payload" -> 'record' ->> 'id' = $1`,
        [id],
      );
      expect(row).toEqual({ traceParent: null });
      // the children may deliver it (they share the outbox): then with a trace of their own, never the request's
      expect(String(delivery.headers.traceparent ?? '')).not.toContain(traceId);
    } finally {
      await t.close();
    }
  });
});
