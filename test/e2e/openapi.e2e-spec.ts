import { ALL_COLLECTIONS } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  beforeAll(async () => {
    t = await startTestApp();
    doc = (await t.http.get('/open-api/core', { anonymous: true })).body;
  });
  afterAll(async () => t?.close());

  it('declares bearer security and the package version', () => {
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.version).toBe(require('../../package.json').version);
  });

  it.each(ALL_COLLECTIONS.map((m) => [m.plural, m.def] as const))('%s: operationIds and the three schemas', (plural, def) => {
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>)
      .flatMap((methods) => Object.values(methods).map((op) => op.operationId));
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
    expect(doc.paths[`/${plural}`].get.security ?? doc.security).toBeDefined();
  });

  it('required fields of the create schema are the non-nullable fields without default', () => {
    expect(doc.components.schemas.ApiKey.required).toEqual(['expiresAt']);
    expect(doc.components.schemas.ApiKeyForUpdate.required ?? []).toEqual([]);
    expect(doc.components.schemas.MessageChannel.required).toEqual(['connectedAccountId']);
  });
});
