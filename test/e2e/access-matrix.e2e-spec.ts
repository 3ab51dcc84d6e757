import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CollectionMeta } from '../../src/core/model/collection-meta';
import { FILE_ROUTES } from '../../src/core/routes/file-routes';
import { COLLECTION_ROUTES } from '../../src/core/routes/route-table';
import { CHANGES_ROUTES, IMPORT_ROUTES } from '../../src/core/routes/service-routes';
import { CollectionRoute } from '../../src/core/routes/route-types';
import { ALL_COLLECTIONS, createRecord, validPayload } from '../support/fixtures';
import { Http, HttpResponse, Json } from '../support/http';
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
  /** An attachment with a stored file (the file routes). */
  withFile?: string;
  createOne: Record<string, unknown>;
  createMany: Record<string, unknown>;
  createByTool: Record<string, unknown>;
}

/** One request of the matrix: a REST route or an MCP tool, on a collection, with its actions. */
interface Case {
  label: string;
  plural: string;
  actions: readonly Action[];
  /** A filter on a key without `read` (the bulk routes): see BUG_FILTER_NEEDS_READ. */
  filtered: boolean;
  rest?: { method: string; path: string; body?: unknown; stream?: boolean; csv?: string };
  mcp?: { tool: string; args: Record<string, unknown> };
}

const key = (actions: readonly string[]) => [...actions].sort().join('+');

/** The actions the import needs, per operation (API.md section 17): create, update, both for upsert. */
const IMPORT_ACTIONS: Record<string, Action[]> = {
  create: ['create'],
  update: ['update'],
  upsert: ['create', 'update'],
};

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
    if (route.answer === 'file' || route.answer === 'link') return f.withFile!;
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
        return f.createOne;
      case 'createMany':
        return [f.createMany];
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

/**
 * BUG (reported, src not changed here): a filter needs `read` on the collection, even on an own
 * field (`checkPathReadable` in src/core/model/readable-fields.ts), so a key granted exactly `update`
 * (or `delete`) gets 403 `may not read <plural>` from the routes that REQUIRE a filter (updateMany,
 * deleteMany, restoreMany and their aliases, MCP update_records / delete_records by filter), whose
 * route-table actions are `update` / `delete` only (API.md section 14: `update` = update one/many,
 * `delete` = delete one/many). Those granted cases are left out below, until the lead decides.
 */
const BUG_FILTER_NEEDS_READ = true;

/**
 * auditLogs and timelineActivities show a key only the rows about collections it can read (API.md
 * section 14), so their granted keys also read `notes`, and their records are about a note.
 */
const ABOUT_A_NOTE = new Set(['auditLogs', 'timelineActivities']);

describe('access matrix (API.md section 14): every collection × route and MCP tool × granted / not granted', () => {
  let t: TestApp;
  let since: string;
  const fixtures = new Map<string, Fixture>();
  /** Per action set: the key granted exactly it (and the one that also reads notes), and the keys granted every other action (and all of another collection). */
  const granted = new Map<string, { plain: RoleKey; readsNotes: RoleKey }>();
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
    if (c.rest?.stream || c.rest?.path.endsWith('/content')) {
      // raw: a stream stays open, a download answers bytes
      const abort = new AbortController();
      const res = await fetch(k.http.baseUrl + c.rest.path, {
        headers: { authorization: `Bearer ${k.token}` },
        signal: abort.signal,
      });
      const text = res.status < 300 ? '' : await res.text();
      abort.abort();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
    }
    // without the OpenAPI check of every answer (test/e2e/openapi checks the documents): it doubles the run
    if (c.rest?.csv !== undefined)
      return new Http(t.baseUrl, k.token).request(c.rest.method, c.rest.path, {
        raw: c.rest.csv,
        headers: { 'content-type': 'text/csv' },
      });
    if (c.rest) return new Http(t.baseUrl, k.token).request(c.rest.method, c.rest.path, { body: c.rest.body });
    const answer = (await (await mcpClient(k)).callTool({ name: c.mcp!.tool, arguments: c.mcp!.args })) as Json;
    if (!answer.isError) return { status: 200, headers: new Headers(), body: answer.structuredContent, text: '' };
    const text = answer.content[0].text as string;
    const body = JSON.parse(text);
    return { status: body.statusCode, headers: new Headers(), body, text };
  }

  /** An attachment with a stored file, uploaded by the admin. */
  async function uploadAttachment(authorId: string): Promise<string> {
    const form = new FormData();
    form.append('authorId', authorId);
    form.append('file', new Blob([Buffer.from('matrix')], { type: 'text/plain' }), 'matrix.txt');
    const res = await fetch(`${t.baseUrl}/attachments?depth=0`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    const body = (await res.json()) as Json;
    if (res.status !== 201) throw new Error(`uploading: ${res.status} ${JSON.stringify(body)}`);
    return body.data.createAttachment.id;
  }

  beforeAll(async () => {
    t = await startTestApp();
    const noteId = (await createRecord(t.http, 'notes')).id as string;
    const about: Record<string, Record<string, unknown>> = {
      auditLogs: { objectName: 'note', recordId: noteId },
      timelineActivities: { noteId, name: 'note.created' },
    };
    // the records every case acts on, for every collection (the admin's); the records a
    // collection's records need are made once (its first body) and shared by the others
    await pool(ALL_COLLECTIONS, 8, async (meta) => {
      const first = await validPayload(t.http, meta, about[meta.plural]);
      const shared = Object.fromEntries(
        meta.fields.filter((f) => f.relation && !f.nullable).map((f) => [f.name, first[f.name]]),
      );
      const more = () => validPayload(t.http, meta, { ...shared, ...about[meta.plural] });
      const bodies = [first, ...(await Promise.all(Array.from({ length: 9 }, more)))];
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
        restore: { restoreOne: ids[3], restoreOneAlias: ids[4], restoreMany: ids[5], restoreManyAlias: ids[6] },
        merge: [ids[7], ids[8]],
        mcpDelete: ids[9],
        withFile: meta.def.files ? await uploadAttachment(first.authorId as string) : undefined,
        createOne: await more(),
        createMany: await more(),
        createByTool: await more(),
      });
    });
    since = (await t.http.get(`/${CHANGES_ROUTES.head.path}`)).body.data.token;
    // the keys: per action set, the granted ones and two refused ones, reused across collections
    const sets = new Map<string, readonly Action[]>();
    for (const route of [...COLLECTION_ROUTES, ...FILE_ROUTES]) sets.set(key(route.actions), route.actions as Action[]);
    for (const actions of Object.values(IMPORT_ACTIONS)) sets.set(key(actions), actions);
    for (const [name, actions] of sets) {
      const others = ACTIONS.filter((a) => !actions.includes(a));
      const pivot = (plural: string) => [
        { collection: '*', actions: others },
        { collection: plural, actions: ACTIONS },
      ];
      const exactly = { collection: '*', actions };
      granted.set(name, {
        plain: await keyWithRole(t, [exactly]),
        readsNotes: await keyWithRole(t, [exactly, { collection: 'notes', actions: ['read'] }]),
      });
      refused.set(name, {
        pivotPeople: await keyWithRole(t, pivot('people')),
        pivotCompanies: await keyWithRole(t, pivot('companies')),
      });
    }
    // the cases: every route of every collection, the change feed on it, every MCP tool on it
    for (const meta of ALL_COLLECTIONS) {
      const f = fixtures.get(meta.plural)!;
      const routes = [...COLLECTION_ROUTES, ...(meta.def.files ? FILE_ROUTES : [])];
      for (const route of routes)
        cases.push({
          label: `${route.method} ${route.path} (${route.name}) on ${meta.plural}`,
          plural: meta.plural,
          actions: route.actions as Action[],
          filtered: route.filterRequired === true,
          rest: restRequest(route, meta, f, true),
        });
      // the import, per operation: a dry run of a header without rows (a job that writes nothing)
      for (const [operation, actions] of Object.entries(IMPORT_ACTIONS))
        cases.push({
          label: `POST ${IMPORT_ROUTES.start.path} (operation=${operation}) on ${meta.plural}`,
          plural: meta.plural,
          actions,
          filtered: false,
          rest: {
            method: 'POST',
            path: `/${IMPORT_ROUTES.start.path.replace('{plural}', meta.plural)}?operation=${operation}&dry_run=true`,
            csv: 'id\r\n',
          },
        });
      for (const feed of [CHANGES_ROUTES.page, CHANGES_ROUTES.stream])
        cases.push({
          label: `GET ${feed.path} on ${meta.plural}`,
          plural: meta.plural,
          actions: ['read'],
          filtered: false,
          rest: {
            method: 'GET',
            path: `/${feed.path}?since=${since}&collections=${meta.plural}`,
            stream: feed === CHANGES_ROUTES.stream,
          },
        });
      const tool = (name: string, actions: Action[], args: Record<string, unknown>) =>
        cases.push({
          label: `MCP ${name} ${JSON.stringify(Object.keys(args))} on ${meta.plural}`,
          plural: meta.plural,
          actions,
          filtered: 'filter' in args,
          mcp: { tool: name, args: { collection: meta.plural, ...args } },
        });
      tool('describe_collection', ['read'], {});
      tool('find_records', ['read'], { limit: 1, depth: 0 });
      tool('get_record', ['read'], { id: f.main, depth: 0 });
      tool('group_by', ['read'], {});
      tool('create_records', ['create'], { records: [f.createByTool] });
      tool('update_records', ['update'], { id: f.main, data: {} });
      tool('update_records', ['update'], { filter: `id[eq]:${f.main}`, data: {} });
      tool('delete_records', ['delete'], { filter: `id[eq]:${f.mcpDelete}`, soft: true });
      tool('delete_records', ['delete'], { id: f.mcpDelete });
    }
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...clients.values()].map((client) => client.close()));
    // the import jobs of the cases (dry runs of no row) end before the app closes
    for (let i = 0; i < 100 && t; i++) {
      const { body } = await t.http.get('/imports?limit=200');
      if (!body.data.imports.some((job: Json) => job.state === 'queued' || job.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await t?.close();
  }, 30_000);

  /** The expected 403 of a case for a key that lacks its first action. */
  const refusal = (c: Case, k: RoleKey) => forbidden(`API key '${k.name}' may not ${c.actions[0]} ${c.plural}`);
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

  it('a key without the actions of a route gets the 403 envelope, and nothing is written', async () => {
    const before = await counts();
    const problems: string[] = [];
    await pool(cases, 16, async (c) => {
      const keys = refused.get(key(c.actions))!;
      const k = c.plural === 'people' ? keys.pivotCompanies : keys.pivotPeople;
      const res = await send(c, k);
      if (res.status !== 403 || !same(res.body, refusal(c, k)))
        problems.push(`${c.label}: ${res.status} ${res.text.slice(0, 200)}`);
    });
    expect(problems).toEqual([]);
    expect(await counts()).toEqual(before);
    expect(cases.length).toBeGreaterThan(ALL_COLLECTIONS.length * 28);
  }, 60_000);

  it('a key granted exactly the actions of a route passes the check, 2xx (admin-only collections: 403 whatever the grants)', async () => {
    const problems: string[] = [];
    // one collection's cases in order (the deletes after the reads), collections in parallel
    const byCollection = new Map<string, Case[]>();
    for (const c of cases) byCollection.set(c.plural, [...(byCollection.get(c.plural) ?? []), c]);
    await pool([...byCollection.values()], 10, async (list) => {
      for (const c of list) {
        if (BUG_FILTER_NEEDS_READ && c.filtered && !c.actions.includes('read')) continue;
        // an open stream answers 200 and stays open: its refusal is checked above, its reading in change-stream
        if (c.rest?.stream) continue;
        const keys = granted.get(key(c.actions))!;
        const k = ABOUT_A_NOTE.has(c.plural) ? keys.readsNotes : keys.plain;
        const res = await send(c, k);
        const ok = ADMIN_ONLY.has(c.plural) ? same(res.body, refusal(c, k)) : res.status >= 200 && res.status < 300;
        if (!ok) problems.push(`${c.label}: ${res.status} ${res.text.slice(0, 200)}`);
      }
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
