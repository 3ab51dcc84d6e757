import SwaggerParser from '@apidevtools/swagger-parser';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validateSchema: (api: unknown) => void = require('@apidevtools/swagger-parser/lib/validators/schema');
import { contractCollections, requiredByContract } from '../contract/contract-facts';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';
import { keyWithRole } from '../support/keys';
import packageJson from '../../package.json';

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Json;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
  });
  afterAll(async () => t?.close());

  it('is a valid OpenAPI 3.1 document (swagger-parser), every $ref resolving', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const copy = JSON.parse(JSON.stringify(doc));
    await expect(SwaggerParser.parse(copy)).resolves.toBeDefined();
    // swagger-parser's own validator of the OpenAPI 3.1 schema. SwaggerParser.validate() would also
    // dereference the whole document, which does not finish on 37 mutually related record schemas.
    expect(() => validateSchema(copy)).not.toThrow();
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/[^"]+"/g) ?? [];
    for (const ref of new Set(refs)) {
      const name = ref.split('/').pop()!.replace(/"$/, '');
      expect(doc.components.schemas).toHaveProperty(name);
    }
  });

  it('rejects a broken document (the validator is not a no-op)', () => {
    const broken = JSON.parse(JSON.stringify(doc));
    broken.paths['/people'].get.responses = 'nope';
    expect(() => validateSchema(broken)).toThrow(/must be object/);
  });

  it('holds the three schemas of every collection of the contract, composites defined once', () => {
    const names = Object.keys(doc.components.schemas);
    const pascals = Object.values(contractCollections()).map((c) => c.pascal);
    const recordSchemas = pascals.flatMap((p) => [p, `${p}ForUpdate`, `${p}ForResponse`]);
    expect(pascals.length).toBeGreaterThanOrEqual(37);
    expect(recordSchemas.filter((n) => !names.includes(n))).toEqual([]);
    // contract 0.3 adds roles (API.md section 14)
    expect(names).toEqual(expect.arrayContaining(['Role', 'RoleForUpdate', 'RoleForResponse']));
    for (const composite of ['FullName', 'Emails', 'Phones', 'Links', 'Currency', 'Address', 'Actor', 'RichTextV2']) {
      expect(names).toContain(composite);
    }
    expect(doc.components.schemas.PersonForResponse.properties.name).toEqual({
      oneOf: [{ $ref: '#/components/schemas/FullName' }, { type: 'null' }],
    });
  });

  it('documents every query parameter with its grammar, and the error envelope of every status', () => {
    const list = doc.paths['/people'].get;
    const params = Object.fromEntries(list.parameters.map((p: { name: string }) => [p.name, p]));
    for (const name of ['filter', 'order_by', 'limit', 'starting_after', 'ending_before', 'depth', 'fields']) {
      expect(params[name].description.length).toBeGreaterThan(20);
    }
    expect(params.filter.schema.examples[0]).toContain('[ilike]');
    expect(doc.paths['/people/{id}'].delete.parameters.map((p: { name: string }) => p.name)).toContain('soft_delete');
    for (const status of ['400', '401', '429', '503']) {
      expect(list.responses[status].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
    expect(doc.paths['/people'].post.responses['413']).toBeDefined();
    expect(doc.paths['/people/{id}'].get.responses['404']).toBeDefined();
    expect(doc.paths['/people/{id}'].get.parameters[0].schema).toEqual({ type: 'string', format: 'uuid' });
  });

  it('describes the webhook event payload in the 3.1 webhooks section', () => {
    const post = doc.webhooks.recordEvent.post;
    expect(post.requestBody.content['application/json'].schema.required).toEqual([
      'targetUrl',
      'eventName',
      'objectMetadata',
      'workspaceId',
      'webhookId',
      'eventDate',
      'record',
    ]);
    expect(post.parameters.map((p: { name: string }) => p.name)).toContain('X-Twenty-Webhook-Signature');
  });

  it('declares bearer security and the package version', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.version).toBe(packageJson.version);
  });

  it.each(Object.entries(contractCollections()))(
    '%s: operationIds, the three schemas, and a bearer token on every operation',
    (plural, def) => {
      const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
        (methods) => Object.values(methods).map((op) => op.operationId),
      );
      for (const id of [
        `findMany${def.pascalPlural}`,
        `createOne${def.pascal}`,
        `createMany${def.pascalPlural}`,
        `findOne${def.pascal}`,
        `updateOne${def.pascal}`,
        `deleteOne${def.pascal}`,
        `find${def.pascal}Duplicates`,
      ]) {
        expect(ops).toContain(id);
      }
      for (const name of [def.pascal, `${def.pascal}ForUpdate`, `${def.pascal}ForResponse`]) {
        expect(doc.components.schemas).toHaveProperty(name);
      }
      // API.md section 6: every record route needs the bearer token (`security: []` would make it public)
      const paths = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown }>>).filter(
        ([path]) => path.split('/').includes(plural),
      );
      expect(paths.length).toBeGreaterThanOrEqual(5);
      for (const [path, methods] of paths)
        for (const [method, op] of Object.entries(methods))
          expect({ path, method, security: op.security ?? doc.security }).toEqual({
            path,
            method,
            security: [{ bearer: [] }],
          });
    },
  );

  it('describes the import of every collection: parameters, headers, CSV and NDJSON bodies, the job, the errors (API.md section 17)', () => {
    const job = { $ref: '#/components/schemas/ImportJob' };
    const error = { $ref: '#/components/schemas/ErrorEnvelope' };
    for (const [plural, def] of Object.entries(contractCollections())) {
      const op = doc.paths[`/${plural}/import`]?.post;
      expect({ plural, operationId: op?.operationId, tags: op?.tags, security: op?.security }).toEqual({
        plural,
        operationId: `import${def.pascalPlural}`,
        tags: [plural],
        security: [{ bearer: [] }],
      });
      const params = Object.fromEntries(op.parameters.map((p: Json) => [`${p.in} ${p.name}`, p.schema]));
      expect(params).toEqual({
        'query operation': { type: 'string', enum: ['create', 'upsert', 'update'], default: 'create' },
        'query atomic': { type: 'boolean', default: true },
        'query max_errors': { type: 'integer', minimum: 0, maximum: 999999999, default: 1000 },
        'query dry_run': { type: 'boolean', default: false },
        'query blank': { type: 'string', enum: ['ignore', 'clear'], default: 'ignore' },
        'query delimiter': { type: 'string', enum: [',', ';', 'tab', 'pipe'], default: ',' },
        'query webhooks': { type: 'string', enum: ['records', 'summary', 'none'], default: 'summary' },
        'header Prefer': expect.objectContaining({ type: 'string' }),
        'header Idempotency-Key': expect.objectContaining({ type: 'string', maxLength: 255 }),
      });
      expect(op.parameters.every((p: Json) => p.required === false && p.description.length > 20)).toBe(true);
      expect(op.requestBody.required).toBe(true);
      expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/x-ndjson', 'text/csv']);
      expect(op.requestBody.content['text/csv'].schema.type).toBe('string');
      expect(op.requestBody.content['text/csv'].example).toMatch(/^id,.*createdAt,updatedAt,deletedAt\r\n$/);
      for (const status of ['200', '202']) {
        expect(op.responses[status].content['application/json'].schema.properties.data.properties.import).toEqual(job);
        expect(op.responses[status].headers.Location.schema).toEqual({ type: 'string' });
      }
      for (const status of ['400', '401', '403', '413', '414', '415', '422', '429', '503'])
        expect({ status, schema: op.responses[status]?.content['application/json'].schema }).toEqual({
          status,
          schema: error,
        });
      expect(Object.keys(op.responses)).toHaveLength(11);
    }
    const people = doc.paths['/people/import'].post.requestBody.content;
    expect(people['text/csv'].example).toContain(',name.firstName,name.lastName,');
    expect(people['text/csv'].example).toContain(',companyId,');
    expect(people['text/csv'].schema.description).toContain('company.domainName.primaryLinkUrl');
    // the service makes part of each API key: their import is refused, and the document says so
    expect(doc.paths['/apiKeys/import'].post.description).toContain('refused (400)');
  });

  it('describes the five import job routes, their parameters and answers, under the imports tag', () => {
    const job = { $ref: '#/components/schemas/ImportJob' };
    const routes: [string, string, string, string[], string[]][] = [
      ['/imports', 'get', 'findManyImports', ['query limit', 'query starting_after'], ['200', '400', '401', '429']],
      ['/imports/{id}', 'get', 'findOneImport', ['path id'], ['200', '400', '401', '404', '429']],
      ['/imports/{id}/stream', 'get', 'importProgress', ['path id'], ['200', '400', '401', '404', '429']],
      [
        '/imports/{id}/errors',
        'get',
        'findImportErrors',
        ['path id', 'query format'],
        ['200', '400', '401', '404', '429'],
      ],
      ['/imports/{id}/cancel', 'post', 'cancelImport', ['path id'], ['200', '400', '401', '404', '409', '429']],
    ];
    for (const [path, method, operationId, parameters, statuses] of routes) {
      const op = doc.paths[path]?.[method];
      expect({ path, operationId: op?.operationId, tags: op?.tags }).toEqual({ path, operationId, tags: ['imports'] });
      expect(op.parameters.map((p: Json) => `${p.in} ${p.name}`).sort()).toEqual(parameters);
      expect(Object.keys(op.responses).sort()).toEqual([...statuses, '403', '414', '503'].sort());
      expect(op.security ?? doc.security).toEqual([{ bearer: [] }]);
    }
    expect(doc.paths['/imports/{id}'].get.parameters[0].schema).toEqual({ type: 'string', format: 'uuid' });
    expect(doc.paths['/imports/{id}/errors'].get.parameters.find((p: Json) => p.name === 'format').schema).toEqual({
      type: 'string',
      enum: ['csv', 'ndjson'],
      default: 'csv',
    });
    expect(Object.keys(doc.paths['/imports/{id}/errors'].get.responses['200'].content).sort()).toEqual([
      'application/x-ndjson',
      'text/csv',
    ]);
    expect(Object.keys(doc.paths['/imports/{id}/stream'].get.responses['200'].content)).toEqual(['text/event-stream']);
    expect(doc.paths['/imports'].get.responses['200'].content['application/json'].schema.properties.data).toEqual({
      type: 'object',
      required: ['imports'],
      properties: { imports: { type: 'array', items: job } },
    });
    for (const [path, method] of [
      ['/imports/{id}', 'get'],
      ['/imports/{id}/cancel', 'post'],
    ])
      expect(
        doc.paths[path][method].responses['200'].content['application/json'].schema.properties.data.properties.import,
      ).toEqual(job);
    // one job schema, closed: a job with an undocumented field fails the response checks
    expect(doc.components.schemas.ImportJob).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: expect.arrayContaining(['id', 'collection', 'state', 'rows', 'bytes', 'apiKeyId']),
    });
    expect(doc.components.schemas.ImportJob.properties.startedAt.type).toEqual(['string', 'null']);
    expect(doc.tags.map((tag: Json) => tag.name).slice(-3)).toEqual(['search', 'changes', 'imports']);
    // the start of an import is documented per collection only, not as a generic /{plural}/import
    expect(Object.keys(doc.paths).filter((p) => p.includes('{plural}'))).toEqual([]);
  });

  it("a key's document shows the import of the collections it may create or update on, with its operations", async () => {
    const key = await keyWithRole(t, [
      { collection: 'people', actions: ['read', 'create'], readOnlyFields: ['city'] },
      { collection: 'companies', actions: ['read', 'update'] },
      { collection: 'opportunities', actions: ['read', 'delete'] },
    ]);
    const own = (await key.http.get('/open-api/core')).body;
    const operation = (plural: string) =>
      own.paths[`/${plural}/import`]?.post.parameters.find((p: Json) => p.name === 'operation').schema;
    expect(operation('people')).toEqual({ type: 'string', enum: ['create'], default: 'create' });
    expect(operation('companies')).toEqual({ type: 'string', enum: ['update'] });
    expect(own.paths['/opportunities/import']).toBeUndefined();
    expect(
      Object.keys(own.paths)
        .filter((p) => p.endsWith('/import'))
        .sort(),
    ).toEqual(['/companies/import', '/people/import']);
    // its columns: those it may write, and the relations to collections it may read
    const csv = own.paths['/people/import'].post.requestBody.content['text/csv'];
    expect(csv.example.split(',')).not.toContain('city');
    expect(csv.example.split(',')).toContain('jobTitle');
    expect(csv.schema.description).toContain('company.domainName.primaryLinkUrl');
    // the job routes are every key's (each sees its own jobs), under their tag
    for (const path of [
      '/imports',
      '/imports/{id}',
      '/imports/{id}/stream',
      '/imports/{id}/errors',
      '/imports/{id}/cancel',
    ])
      expect(own.paths).toHaveProperty([path]);
    expect(own.tags.map((tag: Json) => tag.name)).toEqual([
      'people',
      'companies',
      'opportunities',
      'search',
      'changes',
      'imports',
    ]);
  });

  it('required fields of the create schema are those the contract requires, for every collection', () => {
    for (const [plural, { pascal }] of Object.entries(contractCollections())) {
      const required = [...(doc.components.schemas[pascal].required ?? [])].sort();
      expect({ plural, required }).toEqual({ plural, required: requiredByContract(plural).sort() });
      expect({ plural, update: doc.components.schemas[`${pascal}ForUpdate`].required ?? [] }).toEqual({
        plural,
        update: [],
      });
    }
    expect(doc.components.schemas.ApiKey.required).toEqual(['expiresAt']);
  });
});
