import { contractCollections } from '../contract/contract-facts';
import { ALL_COLLECTIONS, createRecord, validPayload, validValue } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { CollectionMeta } from '../../src/core/model/collection-meta';
import { subFieldsOf } from '../../src/core/fields/composite-fields';
import { DeclaredField } from '../../src/core/fields/define-field';
import { CompositeFieldType } from '../../src/core/fields/field-definition';
import type { Json } from '../support/http';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The part of a response record that the payload set (write-only fields are never returned). */
function expectFieldsEqual(meta: CollectionMeta, record: Record<string, unknown>, payload: Record<string, unknown>) {
  for (const field of meta.fields) {
    if (field.writeOnly) {
      expect(record).not.toHaveProperty(field.name);
    } else if (field.name in payload) {
      expect({ [field.name]: record[field.name] }).toEqual({ [field.name]: payload[field.name] });
    }
  }
}

/** A field whose value an update can change: the first plain text or number field, else a join column. */
function updatableField(meta: CollectionMeta) {
  return (
    meta.fields.find(
      (f) => ['TEXT', 'NUMBER', 'BOOLEAN', 'DATE_TIME'].includes(f.type) && !f.writeOnly && !f.relation,
    ) ?? meta.fields.find((f) => f.relation)
  );
}

/** A valid value other than `current` (validValue gives every record the same number, date and flag). */
function changedValue(field: DeclaredField, current: unknown): unknown {
  switch (field.type) {
    case 'NUMBER':
      return (typeof current === 'number' ? current : 0) + 1;
    case 'BOOLEAN':
      return !current;
    case 'DATE_TIME':
      return current === '2027-01-02T03:04:05.678Z' ? '2027-01-03T03:04:05.678Z' : '2027-01-02T03:04:05.678Z';
    default:
      return validValue(field, `${field.name}-updated`); // TEXT: a new unique text
  }
}

describe('every operation on every collection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe.each(ALL_COLLECTIONS.map((meta) => [meta.plural, meta] as const))('%s', (plural, meta) => {
    const { pascal, pascalPlural, singular } = meta.def;
    let payload: Record<string, unknown>;
    let created: Record<string, Json>;

    it('creates one (201, every field as sent, common fields set)', async () => {
      payload = await validPayload(t.http, meta);
      const res = await t.http.post(`/${plural}`, payload);
      expect(res.status).toBe(201);
      created = res.body.data[`create${pascal}`];
      expect(created.id).toMatch(UUID);
      expect(created.createdAt).toMatch(ISO_MS);
      expect(created.updatedAt).toMatch(ISO_MS);
      expect(created.deletedAt).toBeNull();
      expectFieldsEqual(meta, created, payload);
      for (const rel of [...meta.manyToOne, ...meta.oneToMany]) expect(created).toHaveProperty(rel.name);
    });

    it('gets one (200, same record)', async () => {
      const res = await t.http.get(`/${plural}/${created.id}?depth=0`);
      expect(res.status).toBe(200);
      const { ...record } = res.body.data[singular];
      expectFieldsEqual(meta, record, payload);
      expect(record.createdAt).toBe(created.createdAt);
    });

    it('lists (200, envelope with pageInfo and totalCount)', async () => {
      const res = await t.http.get(`/${plural}?depth=0&limit=200`);
      expect(res.status).toBe(200);
      const [{ n: live }] = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${meta.table}" WHERE "deletedAt" IS NULL`,
      );
      expect(res.body.totalCount).toBe(live);
      expect(res.body.data[plural]).toHaveLength(Math.min(live, 200));
      expect(res.body.pageInfo).toEqual({
        hasNextPage: live > 200,
        hasPreviousPage: false,
        startCursor: expect.any(String),
        endCursor: expect.any(String),
      });
      const one = await t.http.get(`/${plural}?depth=0&filter=id[eq]:${created.id}`);
      expect(one.body.data[plural].map((r: { id: string }) => r.id)).toEqual([created.id]);
      expect(one.body.totalCount).toBe(1);
    });

    it('updates one field (200; only that field changes)', async () => {
      const field = updatableField(meta);
      // join-column-only junctions (noteTargets, taskTargets): re-point a join column
      const value = field?.relation
        ? (await createRecord(t.http, field.relation.target)).id
        : field && changedValue(field, created[field.name]);
      if (!field) {
        // only a collection whose contract lists no field but relations has nothing to update
        expect(contractCollections()[plural].fields.filter((f) => f.type !== 'RELATION')).toEqual([]);
      }
      const res = await t.http.patch(`/${plural}/${created.id}?depth=0`, field ? { [field.name]: value } : {});
      expect(res.status).toBe(200);
      const updated = res.body.data[`update${pascal}`];
      if (field) {
        expect(value).not.toEqual(created[field.name]);
        expect(updated[field.name]).toEqual(value);
        const stored = (await t.http.get(`/${plural}/${created.id}?depth=0`)).body.data[singular];
        expect(stored[field.name]).toEqual(value);
      }
      const unchanged = Object.fromEntries(Object.entries(payload).filter(([k]) => k !== field?.name));
      expectFieldsEqual(meta, updated, unchanged);
      expect(Date.parse(updated.updatedAt)).toBeGreaterThanOrEqual(Date.parse(created.updatedAt));
    });

    it('creates many (201, input order)', async () => {
      const items = [await validPayload(t.http, meta), await validPayload(t.http, meta)];
      const res = await t.http.post(`/batch/${plural}?depth=0`, items);
      expect(res.status).toBe(201);
      const records = res.body.data[`create${pascalPlural}`];
      expect(records).toHaveLength(2);
      records.forEach((record: Record<string, unknown>, i: number) => expectFieldsEqual(meta, record, items[i]));
    });

    it('finds duplicates by the contract criteria (200, both keys, one result per input)', async () => {
      // a pair equal on every field of the contract's first criterion (values of 3+ characters)
      const criteria = contractCollections()[plural].duplicateCriteria;
      const shared: Record<string, unknown> = {};
      for (const path of criteria[0] ?? []) {
        const [name, sub] = path.split('.');
        const field = meta.fieldByName.get(name)!;
        const typed = sub ? subFieldsOf(field.type as CompositeFieldType).find((f) => f.name === sub)! : field;
        const value = field.relation ? (await createRecord(t.http, field.relation.target)).id : validValue(typed);
        shared[name] = sub ? { ...(shared[name] as object), [sub]: value } : value;
      }
      const pair = [await validPayload(t.http, meta, shared), await validPayload(t.http, meta, shared)];
      if (criteria.length === 0) {
        // identical records, but for what the contract makes unique: still no duplicate
        const facts = contractCollections()[plural];
        const uniques = [...facts.fields.filter((f) => f.unique), ...facts.uniqueIndexes.flatMap((i) => i.columns)];
        const keep = new Set(uniques.map((u) => (typeof u === 'string' ? u : u.name)));
        pair[1] = { ...pair[0], ...Object.fromEntries(Object.entries(pair[1]).filter(([k]) => keep.has(k))) };
      }
      // a criterion of unique fields only (roles: name) cannot have two records: the candidate is asked as data
      const facts = contractCollections()[plural];
      const uniqueOnly =
        criteria.length > 0 && criteria[0].every((path) => facts.fields.find((f) => f.name === path)?.unique);
      const made = await t.http.post(`/batch/${plural}?depth=0`, uniqueOnly ? pair.slice(0, 1) : pair);
      expect({ status: made.status, messages: made.body.messages }).toEqual({ status: 201, messages: undefined });
      const [original, stored] = made.body.data[`create${pascalPlural}`];
      const twin = stored ?? { id: original.id };
      const res = await t.http.post(
        `/${plural}/duplicates?depth=0`,
        uniqueOnly ? { data: [pair[1]] } : { ids: [original.id] },
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(1);
      const [result] = res.body.data;
      expect(result.companyDuplicates).toEqual(result[`${singular}Duplicates`]);
      const ids = result.companyDuplicates.map((r: { id: string }) => r.id);
      if (!uniqueOnly) expect(ids).not.toContain(original.id);
      // with criteria the twin is found (for a candidate given as data: the stored record); without, the contract says: empty, never an error
      expect(ids).toEqual(criteria.length > 0 ? [twin.id] : []);
      expect(result.totalCount).toBe(ids.length);
      await t.http.delete(`/${plural}?filter=id[in]:[${original.id},${twin.id}]`);
    });

    it('soft-deletes, hides, and restores', async () => {
      const soft = await t.http.delete(`/${plural}/${created.id}?soft_delete=true`);
      expect(soft.status).toBe(200);
      expect(soft.body.data[`delete${pascal}`].deletedAt).toMatch(ISO_MS);
      expect((await t.http.get(`/${plural}/${created.id}`)).status).toBe(404);
      const restored = await t.http.patch(`/${plural}/${created.id}/restore`);
      expect(restored.status).toBe(200);
      expect(restored.body.data[`restore${pascal}`].deletedAt).toBeNull();
      expect((await t.http.get(`/${plural}/${created.id}`)).status).toBe(200);
    });

    it('hard-deletes (200 with the id), then 404', async () => {
      const res = await t.http.delete(`/${plural}/${created.id}`);
      expect(res.status).toBe(200);
      expect(res.body.data[`delete${pascal}`]).toEqual({ id: created.id });
      expect((await t.http.get(`/${plural}/${created.id}`)).status).toBe(404);
      expect((await t.http.delete(`/${plural}/${created.id}`)).status).toBe(404);
      expect((await t.http.patch(`/${plural}/${created.id}`, {})).status).toBe(404);
    });
  });

  it('accepts a client-chosen id and refuses it a second time', async () => {
    const id = '0b8f5c1e-6d2a-4c1e-9f3a-2b7c8d9e0f1a';
    const first = await t.http.post('/companies', { id, name: 'Chosen' });
    expect(first.status).toBe(201);
    expect(first.body.data.createCompany.id).toBe(id);
    const again = await t.http.post('/companies', { id, name: 'Chosen again' });
    expect(again.status).toBe(400);
    expect(again.body.messages).toEqual(['A duplicate entry was detected']);
  });

  it('refuses a join column that points nowhere, naming the field', async () => {
    const res = await t.http.post('/people', { companyId: '7d3c0a4e-1111-4222-8333-944455556666' });
    expect(res.status).toBe(400);
    expect(res.body.messages[0]).toMatch(
      /^companyId '7d3c0a4e-1111-4222-8333-944455556666' does not match an existing record/,
    );
  });

  it('sets createdBy from the API key unless the client gives a source', async () => {
    const server = await createRecord(t.http, 'companies', { createdBy: undefined });
    expect(server.createdBy).toEqual({ source: 'API', name: 'e2e', workspaceMemberId: null, context: {} });
    const client = await createRecord(t.http, 'companies', { createdBy: { source: 'IMPORT', name: 'csv import' } });
    expect(client.createdBy).toMatchObject({ source: 'IMPORT', name: 'csv import' });
  });
});
