import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CollectionMeta } from '../../src/core/model/collection-meta';
import { CHANGES_ROUTES, COLLECTION_ROUTES, FILE_ROUTES } from '../../src/core/routes/route-table';
import { CollectionRoute } from '../../src/core/routes/route-types';
import { ALL_COLLECTIONS, validPayload } from '../support/fixtures';
import type { HttpResponse, Json } from '../support/http';
import { forbidden, keyWithRole, RoleKey } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The access matrix of API.md section 14, generated from the route table and the MCP tools: for
 * every collection × every route (and MCP tool on a collection) × a key granted exactly the
 * route's actions / a key granted every other action (and everything on another collection), the
 * exact status; a refused request writes nothing (row counts of every table before and after).
 */

type Action = 'read' | 'create' | 'update' | 'delete';
const ACTIONS: Action[] = ['read', 'create', 'update', 'delete'];
const ADMIN_ONLY = new Set(['apiKeys', 'roles', 'webhooks']);

/** The records a collection's cases act on, made by the admin before any case runs. */
interface Fixture {
  main: string;
  deleteOne: string;
  deleteMany: string;
  restore: Record<string, string>;
  merge: [string, string];
  mcpDelete: string;
  createBody: Record<string, unknown>;
}

/** One request of the matrix: a REST route or an MCP tool, on a collection, with its actions. */
interface Case {
  label: string;
  plural: string;
  actions: readonly Action[];
  /** Whether a granted key's answer must be a 2xx (false: the request is refused for another reason). */
  wellFormed: boolean;
  rest?: { method: string; path: string; body?: unknown; stream?: boolean };
  mcp?: { tool: string; args: Record<string, unknown> };
}

const key = (actions: readonly string[]) => [...actions].sort().join('+');

/** Runs `work` over `items`, at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The REST request of a route on a collection, with the fixture's records. */
function restRequest(route: CollectionRoute, meta: CollectionMeta, f: Fixture, granted: boolean) {
  const id = (() => {
    if (route.name.startsWith('restoreOne')) return f.restore[route.name];
    if (route.name === 'deleteOne') return f.deleteOne;
    return f.main;
  })();
  let path = `/${route.path.replace('{plural}', meta.plural).replace('{id}', id)}`;
  const query: string[] = [];
  if (route.params.includes('depth')) query.push('depth=0');
  if (route.filterRequired) {
    const target = route.name.startsWith('restoreMany')
      ? f.restore[route.name]
      : route.name === 'deleteMany'
        ? f.deleteMany
        : f.main;
    query.push(`filter=id[eq]:${target}`);
  }
  if (route.name === 'exportRecords') query.push('format=ndjson');
  if (query.length) path += `?${query.join('&')}`;
  const body = (() => {
    switch (route.body) {
      case 'create':
        return f.createBody;
      case 'createMany':
        return [f.createBody];
      case 'update':
        return {};
      case 'duplicates':
        return { ids: [f.main] };
      case 'merge':
        return { ids: f.merge, conflictPriorityIndex: 0, dryRun: !granted };
      default:
        return undefined;
    }
  })();
  return { method: route.method, path, body };
}

describe('access matrix (API.md section 14): every collection × route and MCP tool × granted / not granted', () => {
  let t: TestApp;
  const fixtures = new Map<string, Fixture>();
  /** Per action set: the key granted exactly it, and the keys granted every other action (and all of another collection). */
  const granted = new Map<string, RoleKey>();
  const refused = new Map<string, { pivotPeople: RoleKey; pivotCompanies: RoleKey }>();
  const clients = new Map<string, Client>();
  const cases: Case[] = [];

  const count = async (table: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;
  const counts = async () => {
    const tables = [...ALL_COLLECTIONS.map((m) => m.table), '_changes'];
    return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)])));
  };

  async function mcpClient(k: RoleKey): Promise<Client> {
    let client = clients.get(k.token);
    if (!client) {
      client = new Client({ name: 'access-matrix', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${k.token}` } },
        }),
      );
      clients.set(k.token, client);
    }
    return client;
  }

  /** Sends a case with a key; the status (a tool error carries the REST envelope as its text). */
  async function send(c: Case, k: RoleKey): Promise<HttpResponse> {
    if (c.rest?.stream) {
      const abort = new AbortController();
      const res = await fetch(k.http.baseUrl + c.rest.path, {
        headers: { authorization: `Bearer ${k.token}` },
        signal: abort.signal,
      });
      const text = res.status === 200 ? '' : await res.text();
      abort.abort();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
    }
    if (c.rest) return k.http.request(c.rest.method, c.rest.path, { body: c.rest.body });
    const answer = (await (await mcpClient(k)).callTool({ name: c.mcp!.tool, arguments: c.mcp!.args })) as Json;
    if (!answer.isError) return { status: 200, headers: new Headers(), body: answer.structuredContent, text: '' };
    const text = answer.content[0].text as string;
    const body = JSON.parse(text);
    return { status: body.statusCode, headers: new Headers(), body, text };
  }

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
    // the records every case acts on, for every collection (the admin's)
    await pool(ALL_COLLECTIONS, 4, async (meta) => {
      const bodies = await Promise.all(Array.from({ length: 10 }, () => validPayload(t.http, meta)));
      const made = await t.http.post(`/batch/${meta.plural}?depth=0`, bodies);
      if (made.status !== 201) throw new Error(`creating ${meta.plural}: ${made.status} ${made.text}`);
      const ids: string[] = made.body.data[`create${meta.def.pascalPlural}`].map((r: Json) => r.id);
      const restored = ids.slice(3, 7);
      const soft = await t.http.delete(`/${meta.plural}?filter=id[in]:[${restored.join(',')}]&soft_delete=true`);
      if (soft.status !== 200) throw new Error(`soft-deleting ${meta.plural}: ${soft.status} ${soft.text}`);
      fixtures.set(meta.plural, {
        main: ids[0],
        deleteOne: ids[1],
        deleteMany: ids[2],
        restore: {
          restoreOne: ids[3],
          restoreOneAlias: ids[4],
          restoreMany: ids[5],
          restoreManyAlias: ids[6],
        },
        merge: [ids[7], ids[8]],
        mcpDelete: ids[9],
        createBody: await validPayload(t.http, meta),
      });
    });
    // the keys: one granted and two refused roles per action set, reused across collections
    const sets = new Map<string, readonly Action[]>();
    for (const route of [...COLLECTION_ROUTES, ...FILE_ROUTES]) sets.set(key(route.actions), route.actions as Action[]);
    for (const [name, actions] of sets) {
      const others = ACTIONS.filter((a) => !actions.includes(a));
      const pivot = (plural: string) => [
        { collection: '*', actions: others },
        { collection: plural, actions: ACTIONS },
      ];
      granted.set(name, await keyWithRole(t, [{ collection: '*', actions }]));
      refused.set(name, {
        pivotPeople: await keyWithRole(t, pivot('people')),
        pivotCompanies: await keyWithRole(t, pivot('companies')),
      });
    }
    // the cases: every route of every collection, then every MCP tool on a collection
    for (const meta of ALL_COLLECTIONS) {
      const f = fixtures.get(meta.plural)!;
      const routes = [...COLLECTION_ROUTES, ...(meta.def.files ? FILE_ROUTES : [])];
      for (const route of routes)
        cases.push({
          label: `${route.method} ${route.path} (${route.name}) on ${meta.plural}`,
          plural: meta.plural,
          actions: route.actions as Action[],
          wellFormed: true,
          rest: restRequest(route, meta, f, true),
        });
      const changes = `/${CHANGES_ROUTES.page.path}?since=0&collections=${meta.plural}`;
      cases.push({
        label: `GET ${CHANGES_ROUTES.page.path} on ${meta.plural}`,
        plural: meta.plural,
        actions: ['read'],
        wellFormed: true,
        rest: { method: 'GET', path: changes },
      });
      cases.push({
        label: `GET ${CHANGES_ROUTES.stream.path} on ${meta.plural}`,
        plural: meta.plural,
        actions: ['read'],
        wellFormed: true,
        rest: { method: 'GET', path: `/${CHANGES_ROUTES.stream.path}?since=0&collections=${meta.plural}`, stream: true },
      });
      const tool = (tool: string, actions: Action[], args: Record<string, unknown>) =>
        cases.push({
          label: `MCP ${tool} ${JSON.stringify(Object.keys(args))} on ${meta.plural}`,
          plural: meta.plural,
          actions,
          wellFormed: true,
          mcp: { tool, args: { collection: meta.plural, ...args } },
        });
      tool('describe_collection', ['read'], {});
      tool('find_records', ['read'], { limit: 1, depth: 0 });
      tool('get_record', ['read'], { id: f.main, depth: 0 });
      tool('group_by', ['read'], {});
      tool('create_records', ['create'], { records: [await validPayload(t.http, meta)] });
      tool('update_records', ['update'], { id: f.main, data: {} });
      tool('update_records', ['update'], { filter: `id[eq]:${f.main}`, data: {} });
      tool('delete_records', ['delete'], { id: f.mcpDelete });
      tool('delete_records', ['delete'], { filter: `id[eq]:${f.mcpDelete}`, soft: true });
    }
  }, 120_000);

  afterAll(async () => {
    for (const client of clients.values()) await client.close();
    await t?.close();
  });

  /** The expected 403 of a case for a key that lacks one of its actions (the first missing one). */
  const refusal = (c: Case, k: RoleKey, missing: Action) => forbidden(`API key '${k.name}' may not ${missing} ${c.plural}`);

  it('a key without the actions of a route gets the 403 envelope, and nothing is written', async () => {
    const before = await counts();
    const problems: string[] = [];
    await pool(cases, 8, async (c) => {
      const keys = refused.get(key(c.actions))!;
      const k = c.plural === 'people' ? keys.pivotCompanies : keys.pivotPeople;
      // a refused merge is a dry run, so that nothing could be written even if it were let through
      const res = await send(c, k);
      const expected = refusal(c, k, c.actions[0]);
      if (res.status !== 403 || JSON.stringify(res.body) !== JSON.stringify(expected))
        problems.push(`${c.label}: ${res.status} ${res.text.slice(0, 200)}`);
    });
    expect(problems).toEqual([]);
    expect(await counts()).toEqual(before);
  }, 60_000);

  it('a key granted exactly the actions of a route passes the check (admin-only collections: 403 whatever the grants)', async () => {
    const problems: string[] = [];
    // one collection's cases in order (the deletes after the reads), collections in parallel
    const byCollection = new Map<string, Case[]>();
    for (const c of cases) byCollection.set(c.plural, [...(byCollection.get(c.plural) ?? []), c]);
    await pool([...byCollection.values()], 6, async (list) => {
      for (const c of list) {
        const k = granted.get(key(c.actions))!;
        const res = await send(c, k);
        if (ADMIN_ONLY.has(c.plural)) {
          if (JSON.stringify(res.body) !== JSON.stringify(refusal(c, k, c.actions[0])))
            problems.push(`${c.label}: ${res.status} ${res.text.slice(0, 200)}`);
        } else if (res.status === 403 || (c.wellFormed && (res.status < 200 || res.status > 299)))
          problems.push(`${c.label}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
