import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createServer, Server } from 'node:http';
import { keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';
import { CollectionFacts, contractCollections, factsCopy, requiredByContract } from '../contract/contract-facts';
import { catalog } from '../support/fixtures';

type ToolAnswer = { isError?: boolean; structuredContent?: Json; content: { type: string; text: string }[] };

/** What describe_collection can be held to by the contract: per field type, nullability, required, options. */
function contractView(plural: string, facts: CollectionFacts) {
  const required = new Set(requiredByContract(plural));
  return {
    name: plural,
    singular: facts.singular,
    fields: facts.fields
      .filter((f) => f.type !== 'RELATION' && f.type !== 'TS_VECTOR')
      .map((f) => ({
        name: f.name,
        type: f.type,
        nullable: f.nullable,
        required: required.has(f.name),
        options: f.options,
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    relations: facts.fields
      .filter((f) => f.type === 'RELATION')
      .map((f) => ({ name: f.name, target: f.relation!.target, kind: f.relation!.kind }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The same view of a describe_collection answer (the common fields left out: the contract lists them apart). */
function describedAgainstContract(plural: string, described: Json) {
  const common = ['id', 'createdAt', 'updatedAt', 'deletedAt'];
  return {
    name: described.name,
    singular: described.singular,
    fields: (described.fields as Json[])
      .filter((f) => !common.includes(f.name))
      .map((f) => ({ name: f.name, type: f.type, nullable: f.nullable, required: f.required, options: f.options }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    relations: (described.relations as Json[])
      .map((r) => ({ name: r.name, target: r.target, kind: r.kind }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

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

  /** A tool's arguments as the REST query string carries them: lists of names joined by commas, JSON as text. */
  const query = (args: Record<string, unknown>, names: Record<string, string>, json = false) =>
    new URLSearchParams(
      Object.entries(names)
        .filter(([arg]) => args[arg] !== undefined && args[arg] !== null)
        .map(([arg, param]) => {
          const v = args[arg];
          const text = !json && Array.isArray(v) && v.every((x) => typeof x === 'string') ? v.join(',') : v;
          return [param, typeof text === 'object' ? JSON.stringify(text) : String(text)] as [string, string];
        }),
    ).toString();

  /** A successful tool call answers what the REST route of the same request answers (API.md section 13). */
  async function expectSameAsRest(tool: string, args: Record<string, unknown>, answer: ToolAnswer): Promise<void> {
    const out = answer.structuredContent;
    expect(JSON.parse(answer.content[0].text)).toEqual(out);
    const c = args.collection as string;
    const rest = async (path: string) => {
      const res = await t.http.get(path);
      expect({ tool, args, path, status: res.status }).toEqual({ tool, args, path, status: 200 });
      return res.body;
    };
    switch (tool) {
      case 'list_collections':
        expect(out.collections.map((x: { name: string }) => x.name).sort()).toEqual(
          Object.keys(contractCollections()).sort(),
        );
        break;
      case 'describe_collection':
        expect(describedAgainstContract(c, out)).toEqual(contractView(c, contractCollections()[c]));
        break;
      case 'find_records': {
        const names = { filter: 'filter', order_by: 'order_by', limit: 'limit', cursor: 'starting_after' };
        const body = await rest(`/${c}?${query(args, { ...names, fields: 'fields', depth: 'depth' })}`);
        expect({ records: body.data[c], pageInfo: body.pageInfo, totalCount: body.totalCount }).toEqual(out);
        break;
      }
      case 'get_record':
        expect(
          (await rest(`/${c}/${args.id}?${query(args, { depth: 'depth', fields: 'fields' })}`)).data[
            catalog.require(c).def.singular
          ],
        ).toEqual(out.record);
        break;
      case 'search_records': {
        const names = { query: 'query', objects: 'objects', limit: 'limit', cursor: 'starting_after' };
        const body = await rest(`/search?${query(args, names)}`);
        expect({ results: body.data.search, pageInfo: body.pageInfo }).toEqual(out);
        break;
      }
      case 'group_by': {
        const json = { group_by: 'group_by', aggregate: 'aggregate', order_by: 'order_by' };
        const text = { filter: 'filter', limit: 'limit', timezone: 'timezone' };
        const body = await rest(`/${c}/groupBy?${query(args, json, true)}&${query(args, text)}`);
        expect({ groups: body }).toEqual(out);
        break;
      }
      default: {
        // a write: each record it returns is stored as returned (a hard delete: gone)
        for (const record of out.records as Record<string, unknown>[]) {
          const res = await t.http.get(`/${c}?depth=0&filter=id[eq]:${record.id},deletedAt[is]:NOT_NULL`);
          const live = await t.http.get(`/${c}/${record.id}?depth=0`);
          const stored = live.status === 200 ? live.body.data[catalog.require(c).def.singular] : res.body.data[c][0];
          if (tool === 'delete_records' && !args.soft)
            expect({ tool, args, stored }).toEqual({ tool, args, stored: undefined });
          else expect({ tool, args, stored }).toEqual({ tool, args, stored: record });
        }
      }
    }
  }

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

  it('list_collections and describe_collection tell what the contract says, for every collection', async () => {
    const contract = contractCollections();
    const list = await call('list_collections');
    expect(list.structuredContent.collections.map((c: { name: string }) => c.name).sort()).toEqual(
      Object.keys(contract).sort(),
    );
    for (const [plural, facts] of Object.entries(contract)) {
      const described = await call('describe_collection', { collection: plural });
      expect(JSON.parse(described.content[0].text)).toEqual(described.structuredContent);
      expect(describedAgainstContract(plural, described.structuredContent)).toEqual(contractView(plural, facts));
    }
    const amount = (await call('describe_collection', { collection: 'opportunities' })).structuredContent.fields.find(
      (f: { name: string }) => f.name === 'amount',
    );
    expect(amount.subFields.map((s: { name: string }) => s.name)).toEqual(
      factsCopy().compositeTypes.CURRENCY.map((s) => s.name),
    );
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
    expect(deleted.structuredContent.records[0].deletedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect((await t.http.get(`/people/${id}`)).status).toBe(404);
    const soft = await t.http.get(`/people?depth=0&filter=id[eq]:${id},deletedAt[is]:NOT_NULL`);
    expect(soft.body.data.people.map((r: { deletedAt: string }) => r.deletedAt)).toEqual([
      deleted.structuredContent.records[0].deletedAt,
    ]);
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

  it('a hidden or read-only field in a write is refused by its name before its value is checked, as over REST', async () => {
    const key = await keyWithRole(t, [
      {
        collection: 'people',
        actions: ['read', 'create', 'update'],
        hiddenFields: ['phones'],
        readOnlyFields: ['jobTitle'],
      },
    ]);
    const own = await connect(key.token);
    try {
      const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n;
      // values the validation would refuse: its message would tell the key a rule of a field it may not know
      const cases: [string, Record<string, unknown>, string][] = [
        [
          'create_records',
          { collection: 'people', records: [{ phones: 42, city: 7 }] },
          "[0] Field 'phones' is not writable",
        ],
        [
          'update_records',
          { collection: 'people', filter: 'id[is]:NOT_NULL', data: { jobTitle: null } },
          "Field 'jobTitle' is not writable",
        ],
      ];
      for (const [tool, args, message] of cases) {
        const answer = (await own.callTool({ name: tool, arguments: args })) as ToolAnswer;
        expect({ tool, isError: answer.isError }).toEqual({ tool, isError: true });
        expect({ tool, messages: JSON.parse(answer.content[0].text).messages }).toEqual({ tool, messages: [message] });
      }
      expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n).toBe(before);
    } finally {
      await own.close();
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
    const anyArgs = fc.dictionary(
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
    // well-formed arguments (fields every one of these collections has), a weird value at times:
    // many calls succeed, and a successful call is compared with its REST route
    const seeded = (
      await t.http.post('/batch/people?depth=0', [{ city: 'Fuzz' }, { city: 'Fuzz' }, { city: 'Fuzzy' }])
    ).body.data.createPeople.map((r: { id: string }) => r.id);
    const or = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: weird, weight: 1 });
    const wellFormed = fc.record(
      {
        collection: or(fc.constantFrom('people', 'companies', 'opportunities')),
        filter: or(fc.constantFrom('id[is]:NOT_NULL', 'position[gte]:0', 'or(deletedAt[is]:NULL,id[is]:NULL)')),
        order_by: or(fc.constantFrom('createdAt[DescNullsLast]', 'position,id', 'updatedAt[AscNullsFirst]')),
        limit: or(fc.integer({ min: 1, max: 5 })),
        fields: or(fc.subarray(['id', 'createdAt', 'position'], { minLength: 1 })),
        depth: or(fc.integer({ min: 0, max: 2 })),
        id: or(fc.constantFrom(...seeded)),
        records: or(fc.constantFrom([{}], [{ position: 3 }, {}])),
        data: or(fc.constantFrom({ position: 7 }, {})),
        soft: or(fc.boolean()),
        query: or(fc.constantFrom('fuzz', 'fuz', 'twin')),
        objects: or(fc.constantFrom(['people'], ['people', 'companies'])),
        group_by: or(fc.constantFrom([{ position: true }], [{ createdAt: { granularity: 'DAY' } }])),
        aggregate: or(fc.constantFrom(['maxPosition'], ['countNotEmptyPosition', 'minCreatedAt'])),
        timezone: or(fc.constantFrom('UTC', 'Europe/Oslo')),
      },
      { requiredKeys: ['collection', 'query'] },
    );
    // each tool gets the arguments it takes (plus, at times, one it does not)
    const takes: Record<string, string[]> = {
      list_collections: [],
      describe_collection: ['collection'],
      find_records: ['collection', 'filter', 'order_by', 'limit', 'fields', 'depth'],
      get_record: ['collection', 'id', 'depth', 'fields'],
      create_records: ['collection', 'records'],
      update_records: ['collection', 'data', 'id', 'filter'],
      delete_records: ['collection', 'id', 'filter', 'soft'],
      search_records: ['query', 'objects', 'limit'],
      group_by: ['collection', 'group_by', 'aggregate', 'filter', 'limit', 'timezone'],
    };
    const toolAndArgs = fc.oneof(
      { arbitrary: fc.tuple(fc.constantFrom(...tools), anyArgs), weight: 1 },
      {
        arbitrary: fc.tuple(fc.constantFrom(...tools), wellFormed, fc.nat(4)).map(([tool, all, oneIn5]) => {
          const extra = oneIn5 === 0;
          const picked = Object.fromEntries(Object.entries(all).filter(([k]) => takes[tool].includes(k)));
          if ('id' in picked && 'filter' in picked) delete picked[all.soft ? 'id' : 'filter']; // mostly one of them
          return [tool, extra ? { ...picked, zzz: 1 } : picked] as [string, Record<string, unknown>];
        }),
        weight: 3,
      },
    );
    const succeeded: Record<string, number> = {};
    const total = async () =>
      (
        await t.db.query<{ n: number }>(
          `SELECT (SELECT count(*) FROM person) + (SELECT count(*) FROM company) + (SELECT count(*) FROM "auditLog") AS n`,
        )
      )[0].n;
    await fc.assert(
      fc.asyncProperty(toolAndArgs, async ([tool, input]) => {
        const before = Number(await total());
        const answer = await call(tool, input);
        if (answer.isError) {
          const envelope = JSON.parse(answer.content[0].text);
          expect({ tool, input, status: envelope.statusCode < 500 }).toEqual({ tool, input, status: true });
          expect(Number(await total())).toBe(before);
        } else {
          succeeded[tool] = (succeeded[tool] ?? 0) + 1;
          await expectSameAsRest(tool, input, answer);
        }
      }),
      { seed: 1713, numRuns: 300 },
    );
    // the REST comparison above had something to compare, for every tool
    expect(Object.keys(succeeded).sort()).toEqual([...tools].sort());
  });
});

/** API.md section 13: MCP is subject to the same rate limits as the REST routes (one budget per key). */
describe('MCP under the rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_PER_MINUTE: '6' });
  });
  afterAll(async () => t?.close());

  it('tool calls spend the key budget; over it: 429 with Retry-After, for MCP and REST alike', async () => {
    const mcp = (id: number) =>
      fetch(`${t.baseUrl}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${t.token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_collections' } }),
      });
    const answers = [];
    for (let i = 1; i <= 5; i++) answers.push(await mcp(i));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.map((r) => r.headers.get('ratelimit-remaining'))).toEqual(['5', '4', '3', '2', '1']);
    expect(((await answers[0].json()) as Json).result.structuredContent.collections.length).toBeGreaterThanOrEqual(37);
    expect((await t.http.get('/companies?depth=0')).status).toBe(200); // the sixth request of the minute
    for (const limited of [
      await mcp(6),
      await fetch(`${t.baseUrl}/companies`, { headers: { authorization: `Bearer ${t.token}` } }),
    ]) {
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(await limited.json()).toEqual({
        statusCode: 429,
        error: 'TooManyRequestsException',
        messages: ['Rate limit exceeded: 6 requests per minute for this API key'],
      });
    }
  });
});
