import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { HttpResponse, Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

const MESSAGE = 'targetUrl must be a public http(s) URL';
/** Operations no event of this suite matches: accepted webhooks never make it reach the internet. */
const NEVER = ['test.never'];
const PUBLIC_URL = 'http://93.184.216.34/hook';

/** Targets that reach inside, as a new user would try them (API.md section 9, OWASP API7). */
const REFUSED: [string, string][] = [
  ['cloud metadata (link-local)', 'http://169.254.169.254/latest/meta-data/'],
  ['Redis on loopback', 'http://127.0.0.1:6379'],
  ['private 10.0.0.0/8', 'http://10.0.0.1/'],
  ['private 192.168.0.0/16', 'https://192.168.1.10/hook'],
  ['IPv4-mapped IPv6 loopback', 'http://[::ffff:127.0.0.1]/'],
  ['IPv4 as one decimal number', 'http://2130706433/'],
  ['IPv4 in hex, short form', 'http://0x7f.1/'],
  ['IPv6 loopback', 'http://[::1]:8080/'],
  ['localhost (a name that resolves to loopback)', 'http://localhost:3000/hook'],
  ['unspecified', 'http://0.0.0.0/'],
  ['unique-local IPv6', 'http://[fd00::1]/'],
  ['link-local IPv6', 'http://[fe80::1]/'],
  ['multicast', 'http://224.0.0.1/'],
  ['a name that does not resolve', 'http://does-not-resolve.invalid/hook'],
  ['not http(s)', 'ftp://93.184.216.34/'],
];

/** The default configuration: private targets refused. */
describe('webhook targets cannot reach inside', () => {
  let t: TestApp;
  let mcp: Client;
  let existing: Json;
  const rows = () => t.db.query('SELECT id, "targetUrl", "updatedAt" FROM webhook ORDER BY id');
  const tool = async (name: string, args: Record<string, unknown>): Promise<HttpResponse> => {
    const answer = (await mcp.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
    };
    const body = JSON.parse(answer.content[0].text);
    return {
      status: answer.isError ? body.statusCode : 200,
      body,
      text: answer.content[0].text,
      headers: new Headers(),
    };
  };

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_SCHEDULE_MS: '100,200' });
    mcp = new Client({ name: 'e2e', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${t.token}` } },
      }),
    );
    existing = (await t.http.post('/webhooks', { targetUrl: PUBLIC_URL, operations: NEVER })).body.data.createWebhook;
  });
  afterAll(async () => {
    await mcp?.close();
    await t?.close();
  });

  /** Every write path that sets targetUrl, with the messages of its 400. */
  const WRITES: [string, (url: string) => Promise<HttpResponse>, string[]][] = [
    ['create', (url) => t.http.post('/webhooks', { targetUrl: url, operations: NEVER }), [MESSAGE]],
    [
      'batch create (the whole batch)',
      (url) =>
        t.http.post('/batch/webhooks', [
          { targetUrl: PUBLIC_URL, operations: NEVER },
          { targetUrl: url, operations: NEVER },
        ]),
      [`[1] ${MESSAGE}`],
    ],
    [
      'upsert (a create)',
      (url) => t.http.post('/webhooks?upsert=true', { targetUrl: url, operations: NEVER }),
      [MESSAGE],
    ],
    [
      'batch upsert (a patch)',
      (url) => t.http.post('/batch/webhooks?upsert=true', [{ id: existing.id, targetUrl: url }]),
      [`[0] ${MESSAGE}`],
    ],
    ['update one', (url) => t.http.patch(`/webhooks/${existing.id}`, { targetUrl: url }), [MESSAGE]],
    [
      'update one, PUT alias',
      (url) => t.http.request('PUT', `/webhooks/${existing.id}`, { body: { targetUrl: url } }),
      [MESSAGE],
    ],
    ['update many', (url) => t.http.patch(`/webhooks?filter=id[eq]:${existing.id}`, { targetUrl: url }), [MESSAGE]],
    [
      'update many, PUT alias',
      (url) => t.http.request('PUT', `/webhooks?filter=id[eq]:${existing.id}`, { body: { targetUrl: url } }),
      [MESSAGE],
    ],
    [
      'MCP create_records',
      (url) => tool('create_records', { collection: 'webhooks', records: [{ targetUrl: url, operations: NEVER }] }),
      [`[0] ${MESSAGE}`],
    ],
    [
      'MCP update_records by id',
      (url) => tool('update_records', { collection: 'webhooks', id: existing.id, data: { targetUrl: url } }),
      [MESSAGE],
    ],
    [
      'MCP update_records by filter',
      (url) =>
        tool('update_records', { collection: 'webhooks', filter: `id[eq]:${existing.id}`, data: { targetUrl: url } }),
      [MESSAGE],
    ],
  ];

  describe.each(WRITES)('%s', (_, write, messages) => {
    it.each(REFUSED)('refuses %s (%s): 400, nothing written', async (_label, url) => {
      const before = await rows();
      const res = await write(url);
      expect({ status: res.status, messages: res.body.messages }).toEqual({ status: 400, messages });
      expect(res.body).toMatchObject({ statusCode: 400, error: 'BadRequestException' });
      expect(await rows()).toEqual(before);
    });
  });

  it('accepts public addresses on every write path', async () => {
    const ipv6 = 'https://[2606:4700:4700::1111]/hook';
    expect((await t.http.post('/webhooks', { targetUrl: ipv6, operations: NEVER })).status).toBe(201);
    expect((await t.http.post('/batch/webhooks', [{ targetUrl: PUBLIC_URL, operations: NEVER }])).status).toBe(201);
    expect((await t.http.patch(`/webhooks/${existing.id}`, { targetUrl: ipv6 })).status).toBe(200);
    expect(
      (await t.http.request('PUT', `/webhooks?filter=id[eq]:${existing.id}`, { body: { targetUrl: PUBLIC_URL } }))
        .status,
    ).toBe(200);
    expect((await t.http.patch(`/webhooks/${existing.id}`, { description: 'no target in the body' })).status).toBe(200);
    const [row] = await t.db.query('SELECT "targetUrl" FROM webhook WHERE id = $1', [existing.id]);
    expect(row.targetUrl).toBe(PUBLIC_URL);
  });

  describe('delivery checks the address it connects to', () => {
    let receiver: Server;
    let port = 0;
    let hits = 0;
    beforeAll(async () => {
      receiver = createServer((req, res) => {
        hits += 1;
        req.resume();
        res.end('ok');
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      port = (receiver.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => receiver.close(resolve)));

    // rows written straight into the table, as if the rule had been off when they were created
    it.each([
      [
        'an IP literal',
        (p: number) => `http://127.0.0.1:${p}/hook`,
        /^target refused: 127\.0\.0\.1 is not a public address$/,
      ],
      [
        'a name resolving to loopback',
        (p: number) => `http://localhost:${p}/hook`,
        /^target refused: localhost resolves to (127\.0\.0\.1|::1), not a public address$/,
      ],
    ])('refuses %s: the delivery fails at once, with the reason, and nothing is POSTed', async (_, url, reason) => {
      const [webhook] = await t.db.query(
        `INSERT INTO webhook ("targetUrl", operations, secret) VALUES ($1, '{company.created}', 's') RETURNING id`,
        [url(port)],
      );
      try {
        const company = (await t.http.post('/companies?depth=0', { name: `Inside ${Date.now()}` })).body.data
          .createCompany;
        const delivery = async () =>
          (
            await t.db.query<Json>(
              `SELECT status, attempts, "lastStatus", "lastError" FROM "webhookDelivery" WHERE "webhookId" = $1 AND payload->'record'->>'id' = $2`,
              [webhook.id, company.id],
            )
          )[0];
        for (const start = Date.now(); (await delivery())?.status === 'pending' && Date.now() - start < 10_000;)
          await new Promise((r) => setTimeout(r, 50));
        const row = await delivery();
        expect(row).toEqual({
          status: 'failed',
          attempts: 1,
          lastStatus: null,
          lastError: expect.stringMatching(reason),
        });
        expect(hits).toBe(0);
      } finally {
        await t.db.query('DELETE FROM webhook WHERE id = $1', [webhook.id]);
      }
    });
  });
});
