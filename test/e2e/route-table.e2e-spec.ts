import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { documentPath, fill } from '../../src/core/routes/route-paths';
import { COLLECTION_ROUTES } from '../../src/core/routes/route-table';
import { IMPORT_ROUTES } from '../../src/core/routes/service-routes';
import { CollectionRoute } from '../../src/core/routes/route-types';
import { catalog } from '../support/fixtures';
import type { Json } from '../support/http';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The route table (src/core/routes/route-table.ts) is the one source of the routes' facts: the
 * limits of the configuration reach the OpenAPI document and the MCP tools, and every route
 * answers the query parameters it documents, in the error envelope.
 */
describe('route table', () => {
  let t: TestApp;
  const companies = catalog.require('companies').def;
  beforeAll(async () => {
    t = await startTestApp({ BATCH_MAX: '7', BULK_MAX: '123', PAGE_SIZE_DEFAULT: '11', PAGE_SIZE_MAX: '99' });
  });
  afterAll(async () => {
    // the import jobs started below end before the app closes (dry runs of no row: at once)
    for (let i = 0; i < 100; i++) {
      const { body } = await t.http.get('/imports?limit=200');
      if (!body.data.imports.some((job: Json) => job.state === 'queued' || job.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await t?.close();
  });

  const operation = (doc: Json, route: CollectionRoute) =>
    doc.paths[documentPath(route, companies)][route.method.toLowerCase()];

  it('the OpenAPI document and the MCP tools state the limits of the configuration', async () => {
    const doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
    const byName = (name: string) =>
      operation(
        doc,
        COLLECTION_ROUTES.find((r) => r.name === name)!,
      );
    expect(byName('createMany').requestBody.content['application/json'].schema.maxItems).toBe(7);
    const limit = byName('findMany').parameters.find((p: Json) => p.name === 'limit');
    expect(limit.schema.default).toBe(11);
    expect(limit.description).toContain('at most 99');
    const filter = byName('updateMany').parameters.find((p: Json) => p.name === 'filter');
    expect(filter.description).toContain('(here 123)');

    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${t.token}` } },
      }),
    );
    const { tools } = await client.listTools();
    await client.close();
    const create = tools.find((tool) => tool.name === 'create_records')!;
    expect((create.inputSchema.properties as Json).records.maxItems).toBe(7);
    const find = tools.find((tool) => tool.name === 'find_records')!;
    expect((find.inputSchema.properties as Json).limit.maximum).toBe(99);
  });

  /** A request the route would accept but for the parameter it does not know. */
  const bodyOf = (route: CollectionRoute): unknown => {
    switch (route.body) {
      case 'create':
        return { name: 'Route table' };
      case 'createMany':
        return [{ name: 'Route table' }];
      case 'update':
        return {};
      case 'duplicates':
        return { ids: [randomUUID()] };
      case 'merge':
        return { ids: [randomUUID(), randomUUID()] };
      default:
        return undefined;
    }
  };

  it('every route answers the query parameters it documents: an unknown one is a 400 naming them', async () => {
    const doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
    expect(COLLECTION_ROUTES.length).toBeGreaterThanOrEqual(17);
    for (const route of COLLECTION_ROUTES) {
      const documented = operation(doc, route)
        .parameters.filter((p: Json) => p.in === 'query')
        .map((p: Json) => p.name);
      expect({ route: route.name, documented: [...documented].sort() }).toEqual({
        route: route.name,
        documented: [...route.params].sort(),
      });
      const path = `/${fill(route.path, companies).replace('{id}', randomUUID())}?bogus=1`;
      const res = await t.http.request(route.method, path, { body: bodyOf(route) });
      expect({ route: route.name, status: res.status, body: res.body }).toEqual({
        route: route.name,
        status: 400,
        body: {
          statusCode: 400,
          error: 'BadRequestException',
          messages: [`Unknown query parameter 'bogus'; this route accepts ${route.params.join(', ')}`],
        },
      });
    }
  });

  it('the import of a collection answers the parameters and values it documents, and its path takes POST only', async () => {
    const doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
    const op = doc.paths[`/${fill(IMPORT_ROUTES.start.path, companies)}`].post;
    const documented = op.parameters.filter((p: Json) => p.in === 'query');
    expect(documented.map((p: Json) => p.name)).toEqual(IMPORT_ROUTES.start.params);
    const start = (query: string) =>
      t.http.request('POST', `/companies/import?${query}`, {
        raw: 'name\r\n',
        headers: { 'content-type': 'text/csv' },
      });
    const bogus = await start('dry_run=true&bogus=1');
    expect(bogus.body.messages).toEqual([
      `Unknown query parameter 'bogus'; this route accepts ${IMPORT_ROUTES.start.params.join(', ')}`,
    ]);
    for (const parameter of documented) {
      const { name, schema } = parameter;
      const values: string[] =
        schema.type === 'boolean'
          ? ['true', 'false']
          : (schema.enum ?? [String(schema.minimum), String(schema.default)]);
      for (const value of values) {
        const query = new URLSearchParams({ dry_run: 'true', [name]: value });
        const res = await start(query.toString());
        expect({ name, value, status: res.status }).toEqual({ name, value, status: 202 });
      }
      const outside = await start(new URLSearchParams({ dry_run: 'true', [name]: 'nope' }).toString());
      expect({ name, status: outside.status, message: outside.body.messages[0] }).toEqual({
        name,
        status: 400,
        message: expect.stringContaining(`'${name}'`),
      });
    }
    // an unknown route answer names the one method of the path (not those of /companies/{id})
    const options = await t.http.request('OPTIONS', '/companies/import');
    expect(options.body.messages).toEqual(["OPTIONS is not supported on '/rest/companies/import'; it accepts POST"]);
  });
});
