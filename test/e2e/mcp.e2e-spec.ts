import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, Server } from 'node:http';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';

type ToolAnswer = { isError?: boolean; structuredContent?: Json; content: { type: string; text: string }[] };

/** The MCP endpoint (API.md section 13) through the SDK's own client over HTTP. */
describe('MCP', () => {
  let t: TestApp;
  let client: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const connect = async (token?: string) => {
    const c = new Client({ name: 'e2e', version: '1.0.0' });
    await c.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
      }),
    );
    return c;
  };

  beforeAll(async () => {
    // the webhook receiver of the MCP-versus-REST test listens on 127.0.0.1 (a private target)
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    client = await connect(t.token);
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it('initialize and list the 9 tools, with input schemas from the collections', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        'create_records',
        'delete_records',
        'describe_collection',
        'find_records',
        'get_record',
        'group_by',
        'list_collections',
        'search_records',
        'update_records',
      ].sort(),
    );
    const find = tools.find((tool) => tool.name === 'find_records')!;
    expect((find.inputSchema.properties as Json).collection.enum).toContain('people');
    expect(find.description).toMatch(/filter/i);
  });

  it('GET and DELETE are a 405 naming POST (stateless: no stream to resume, no session to end)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${t.baseUrl}/mcp`, {
        method,
        headers: { authorization: `Bearer ${t.token}`, accept: 'application/json, text/event-stream' },
      });
      expect({ method, status: res.status, allow: res.headers.get('allow') }).toEqual({
        method,
        status: 405,
        allow: 'POST',
      });
      expect(((await res.json()) as Json).error).toBe('MethodNotAllowedException');
    }
  });

  it('401 without a key, as on the REST routes', async () => {
    const res = await fetch(`${t.baseUrl}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: string }).error).toBe('UNAUTHENTICATED');
  });

  it('list_collections and describe_collection', async () => {
    const list = await call('list_collections');
    expect(list.structuredContent.collections.map((c: { name: string }) => c.name)).toContain('opportunities');
    const described = await call('describe_collection', { collection: 'opportunities' });
    const stage = described.structuredContent.fields.find((f: { name: string }) => f.name === 'stage');
    expect(stage).toMatchObject({ type: 'SELECT', options: ['NEW', 'SCREENING', 'MEETING', 'PROPOSAL', 'CUSTOMER'] });
    const amount = described.structuredContent.fields.find((f: { name: string }) => f.name === 'amount');
    expect(amount.subFields.map((s: { name: string }) => s.name)).toEqual(['amountMicros', 'currencyCode']);
    expect(JSON.parse(described.content[0].text)).toEqual(described.structuredContent);
  });

  it('create, find, get, update, group, search, delete: the REST services behind each tool', async () => {
    const created = await call('create_records', {
      collection: 'people',
      records: [{ name: { firstName: 'Grace', lastName: 'Hopper' }, city: 'Arlington' }],
    });
    expect(created.isError).toBeFalsy();
    const id = created.structuredContent.records[0].id;
    const found = await call('find_records', {
      collection: 'people',
      filter: 'city[eq]:Arlington',
      fields: ['id', 'city'],
      depth: 0,
    });
    expect(found.structuredContent.records).toEqual([{ id, city: 'Arlington' }]);
    expect(found.structuredContent.totalCount).toBe(1);
    expect((await call('get_record', { collection: 'people', id, depth: 0 })).structuredContent.record.name).toEqual({
      firstName: 'Grace',
      lastName: 'Hopper',
    });
    const updated = await call('update_records', {
      collection: 'people',
      filter: 'city[eq]:Arlington',
      data: { jobTitle: 'Rear Admiral' },
    });
    expect(updated.structuredContent.records.map((r: { jobTitle: string }) => r.jobTitle)).toEqual(['Rear Admiral']);
    const groups = await call('group_by', {
      collection: 'people',
      group_by: [{ city: true }],
      filter: 'city[eq]:Arlington',
    });
    expect(groups.structuredContent.groups).toEqual([{ groupByDimensionValues: ['Arlington'], totalCount: 1 }]);
    const search = await call('search_records', { query: 'grace hop' });
    expect(search.structuredContent.results.map((r: { recordId: string }) => r.recordId)).toEqual([id]);
    const deleted = await call('delete_records', { collection: 'people', id, soft: true });
    expect(deleted.structuredContent.records[0].deletedAt).not.toBeNull();
  });

  it('errors are tool errors carrying the REST messages, and write nothing', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n;
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'create_records',
        { collection: 'people', records: [{ city: 1, nope: true }] },
        '[0] property nope should not exist',
      ],
      [
        'find_records',
        { collection: 'people', filter: 'nope[eq]:1' },
        "field 'nope' does not exist in 'person' object",
      ],
      ['get_record', { collection: 'people', id: 'abc' }, "'abc' is not a valid UUID"],
      ['update_records', { collection: 'people', data: { city: 'x' } }, 'Give exactly one of id and filter'],
      ['update_records', { collection: 'people', data: { city: 'x' }, filter: '' }, 'filter is required'],
      ['find_records', { collection: 'persons' }, "object 'persons' not found. eg: companies"],
      ['group_by', { collection: 'people', aggregate: ['sumCity'] }, "aggregate 'sumCity' is not offered"],
      ['search_records', { query: '  ' }, 'query is required'],
      ['find_records', { collection: 'people', extra: 1 }, 'Unknown argument extra'],
    ];
    for (const [tool, args, message] of cases) {
      const answer = await call(tool, args);
      expect({ tool, isError: answer.isError }).toEqual({ tool, isError: true });
      const envelope = JSON.parse(answer.content[0].text);
      expect(envelope.statusCode).toBe(400);
      expect(envelope.messages.join(' ')).toContain(message);
    }
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n).toBe(before);
  });

  it('a write through MCP and the same write through REST: the same record, audit row and webhook delivery', async () => {
    const received: { event: string; record: Record<string, unknown> }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const payload = JSON.parse(body);
        received.push({ event: payload.eventName, record: payload.record });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.address() as { port: number }).port;
    try {
      await t.http.post('/webhooks', {
        targetUrl: `http://127.0.0.1:${port}/hook`,
        operations: ['company.created'],
        secret: 'mcp-secret',
      });
      const body = { name: 'Twin', employees: 7, domainName: { primaryLinkUrl: '' } };
      const viaRest = (await t.http.post('/companies?depth=0', body)).body.data.createCompany;
      const viaMcp = (await call('create_records', { collection: 'companies', records: [body] })).structuredContent
        .records[0];
      const strip = ({ id: _id, createdAt: _c, updatedAt: _u, ...rest }: Record<string, unknown>) => rest;
      expect(strip(viaMcp)).toEqual(strip(viaRest));
      const audit = await t.db.query<{
        recordId: string;
        name: string;
        objectName: string;
        properties: { after: Record<string, unknown> };
        context: unknown;
      }>(
        `SELECT "recordId", name, "objectName", properties, context FROM "auditLog" WHERE "recordId" = ANY($1::uuid[])`,
        [[viaRest.id, viaMcp.id]],
      );
      expect(audit).toHaveLength(2);
      const [a, b] = [viaRest.id, viaMcp.id].map((rid) => audit.find((row) => row.recordId === rid)!);
      expect({ ...b, recordId: null, properties: strip(b.properties.after) }).toEqual({
        ...a,
        recordId: null,
        properties: strip(a.properties.after),
      });
      const deadline = Date.now() + 15_000;
      while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(received.map((r) => r.event)).toEqual(['company.created', 'company.created']);
      expect(strip(received.find((r) => r.record.id === viaMcp.id)!.record)).toEqual(
        strip(received.find((r) => r.record.id === viaRest.id)!.record),
      );
    } finally {
      receiver.close();
    }
  });

  it('fuzz: random tool inputs never give a server error, and a rejected call writes nothing', async () => {
    const tools = [
      'list_collections',
      'describe_collection',
      'find_records',
      'get_record',
      'create_records',
      'update_records',
      'delete_records',
      'search_records',
      'group_by',
    ];
    const weird = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('people', 'companies', 'NULL', '[', 'a[eq]:', '00000000-0000-4000-8000-00000000000A'),
    );
    const value = fc.oneof(
      weird,
      fc.array(weird, { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('name', 'city', 'stage', 'x', '__proto__'), weird, { maxKeys: 3 }),
    );
    const args = fc.dictionary(
      fc.constantFrom(
        'collection',
        'filter',
        'order_by',
        'limit',
        'cursor',
        'fields',
        'depth',
        'id',
        'records',
        'data',
        'upsert',
        'soft',
        'query',
        'objects',
        'group_by',
        'aggregate',
        'timezone',
        'zzz',
      ),
      value,
      { maxKeys: 4 },
    );
    const total = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM person) + (SELECT count(*) FROM company) + (SELECT count(*) FROM "auditLog") AS n`,
        )
      )[0].n;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tools), args, async (tool, input) => {
        const before = Number(await total());
        const answer = await call(tool, input);
        if (answer.isError) {
          const envelope = JSON.parse(answer.content[0].text);
          expect({ tool, input, status: envelope.statusCode < 500 }).toEqual({ tool, input, status: true });
          expect(Number(await total())).toBe(before);
        }
      }),
      { seed: 1713, numRuns: 300 },
    );
  });
});
