import { DataSource } from 'typeorm';
import { COLLECTIONS } from '../../src/collections';
import { createApp } from '../../src/app.factory';
import { GADGETS, gadgets } from '../support/gadgets/gadgets';
import { pendingSchemaChanges } from '../support/schema-drift';
import { startTestApp, TestApp, TEST_ENCRYPTION_KEY } from '../support/test-app';

/**
 * "Adding a collection" (docs/development.md): a collection declared only in the test tree (an entity, a DTO
 * file, a module with a one-line controller) gets its migration, routes, OpenAPI schemas,
 * events, relations and duplicates, with no edit in src/core.
 */
describe('adding a collection: gadgets, declared in test/support only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({}, { collections: [...COLLECTIONS, GADGETS] });
  });
  afterAll(async () => t?.close());

  it('its migration: a generated migration creates its table, and nothing else', async () => {
    const dataSource = t.app.get(DataSource);
    const changes = await pendingSchemaChanges(dataSource);
    expect(changes.length).toBeGreaterThan(0);
    expect(changes.every((sql) => sql.includes('"gadget"'))).toBe(true);
    expect(changes.join('\n')).toMatch(/CREATE TABLE "gadget"/);
    // apply it, as `npm run migration:generate` then `migration:run` would
    for (const sql of changes) await dataSource.query(sql);
    expect(await pendingSchemaChanges(dataSource)).toEqual([]);
  });

  it('its routes, relations and validation', async () => {
    const company = (await t.http.post('/companies?depth=0', { name: 'Gadget maker' })).body.data.createCompany;
    const created = await t.http.post('/gadgets?depth=1', { name: 'Flux capacitor', price: 88, companyId: company.id });
    expect(created.status).toBe(201);
    const gadget = created.body.data.createGadget;
    expect(gadget).toMatchObject({
      name: 'Flux capacitor',
      price: 88,
      companyId: company.id,
      company: { id: company.id },
    });
    expect(created.headers.get('etag')).toBeTruthy();

    const list = await t.http.get('/gadgets?filter=price[gt]:50&order_by=name&depth=0');
    expect(list.body.data.gadgets.map((g: { id: string }) => g.id)).toEqual([gadget.id]);
    expect(list.body.totalCount).toBe(1);
    const parent = await t.http.get(`/companies/${company.id}?depth=1`);
    expect(parent.body.data.company.gadgets.map((g: { id: string }) => g.id)).toEqual([gadget.id]);

    const many = await t.http.post('/batch/gadgets?depth=0', [{ name: 'Hoverboard' }, { name: 'Time circuit' }]);
    expect(many.body.data.createGadgets).toHaveLength(2);
    const updated = await t.http.patch(`/gadgets/${gadget.id}?depth=0`, { price: 99 });
    expect(updated.body.data.updateGadget.price).toBe(99);

    const bad = await t.http.post('/gadgets', { price: 'cheap', color: 'red' });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual(expect.arrayContaining(['property color should not exist']));
    expect(bad.body.messages.some((m: string) => m.startsWith('price'))).toBe(true);

    const removed = await t.http.delete(`/gadgets/${many.body.data.createGadgets[0].id}`);
    expect(removed.body.data.deleteGadget).toEqual({ id: many.body.data.createGadgets[0].id });
  });

  it('its events: an audit row like any other collection', async () => {
    const created = (await t.http.post('/gadgets?depth=0', { name: 'Audited gadget' })).body.data.createGadget;
    const audit = await t.http.get(`/auditLogs?filter=${encodeURIComponent(`recordId[eq]:${created.id}`)}`);
    expect(audit.body.data.auditLogs.map((a: { name: string; objectName: string }) => [a.name, a.objectName])).toEqual([
      ['gadget.created', 'gadget'],
    ]);
  });

  it('its duplicates', async () => {
    await t.http.post('/gadgets', { name: 'Mr. Fusion' });
    const res = await t.http.post('/gadgets/duplicates?depth=0', { data: [{ name: 'mr. fusion' }] });
    expect(res.status).toBe(200);
    expect(res.body.data[0].gadgetDuplicates.map((g: { name: string }) => g.name)).toEqual(['Mr. Fusion']);
  });

  it('its OpenAPI description: paths, operation ids, the three schemas', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/open-api/core`)).json()) as {
      paths: Record<string, Record<string, { operationId: string }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(doc.paths['/gadgets'].get.operationId).toBe('findManyGadgets');
    expect(doc.paths['/batch/gadgets'].post.operationId).toBe('createManyGadgets');
    expect(doc.paths['/gadgets/{id}'].patch.operationId).toBe('updateOneGadget');
    expect(doc.paths['/gadgets/duplicates'].post.operationId).toBe('findGadgetDuplicates');
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Gadget', 'GadgetForUpdate', 'GadgetForResponse']),
    );
    expect(Object.keys(doc.components.schemas.GadgetForResponse.properties!)).toEqual(
      expect.arrayContaining(['name', 'price', 'company']),
    );
  });

  it('a declaration the model cannot honour fails the start with a clear message', async () => {
    const timeline = { ...GADGETS, definition: { ...gadgets, timeline: true } };
    await expect(
      createApp({
        env: {
          ...t.database.env,
          METRICS_PORT: '0',
          ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
          BOOTSTRAP_API_KEY: 'false',
          LOG_LEVEL: 'silent',
          MIGRATIONS_RUN: 'false',
        },
        collections: [...COLLECTIONS, timeline],
      }).then(({ app }) => app.init().finally(() => app.close())),
    ).rejects.toThrow(/'gadgets' declares timeline: true, but timelineActivities has no join column pointing at it/);
  });
});
