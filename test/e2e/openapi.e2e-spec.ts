import SwaggerParser from '@apidevtools/swagger-parser';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const validateSchema: (api: unknown) => void = require('@apidevtools/swagger-parser/lib/validators/schema');
import { contractCollections, requiredByContract } from '../contract/contract-facts';
import { startTestApp, TestApp } from '../support/test-app';
import type { Json } from '../support/http';
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
