import { CollectionMeta } from '../../src/core/model/collection-meta';
import { requiredByContract } from '../contract/contract-facts';
import {
  ALL_COLLECTIONS,
  createRecord,
  rowCount,
  selectField,
  typedField,
  validPayload,
  wrongTypeValue,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A generic base that declared `@Body() body: T` would validate nothing (TypeScript erases T).
 * This suite proves every write route of every collection rejects bad bodies and writes nothing.
 */
describe('bad bodies on every write route of every collection', () => {
  let t: TestApp;
  const count = (meta: CollectionMeta) => rowCount((sql) => t.db.query(sql), meta);
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  describe.each(ALL_COLLECTIONS.map((meta) => [meta.plural, meta] as const))('%s', (plural, meta) => {
    /** Each bad property, merged into a valid body, with the message the API must give. */
    async function badBodies(): Promise<
      { name: string; body: Record<string, unknown>; bad: Record<string, unknown>; message: RegExp }[]
    > {
      const valid = await validPayload(t.http, meta);
      const typed = typedField(meta);
      const bads: { name: string; bad: Record<string, unknown>; message: RegExp }[] = [
        { name: 'unknown field', bad: { notAField: 1 }, message: /^property notAField should not exist$/ },
      ];
      if (typed) {
        // a collection without fields (messageThreads) has nothing to mistype
        bads.unshift({
          name: `wrong type for ${typed.name}`,
          bad: { [typed.name]: wrongTypeValue(typed) ?? 'not-a-uuid' },
          message: new RegExp(`${typed.name}`),
        });
      }
      const select = selectField(meta);
      if (select) {
        bads.push({
          name: `unknown option for ${select.name}`,
          bad: { [select.name]: select.type === 'MULTI_SELECT' ? ['NOT_AN_OPTION'] : 'NOT_AN_OPTION' },
          message: new RegExp(`^Invalid value 'NOT_AN_OPTION' for field "${select.name}"$`),
        });
      }
      return bads.map((b) => ({ ...b, body: { ...valid, ...b.bad } }));
    }

    it('create one: 400 naming the field, nothing written', async () => {
      for (const { name, body, message } of await badBodies()) {
        const before = await count(meta);
        const res = await t.http.post(`/${plural}`, body);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(res.body.error).toBe('BadRequestException');
        expect(res.body.messages.some((m: string) => message.test(m))).toBe(true);
        expect(await count(meta)).toBe(before);
      }
    });

    it('create one: each field the contract requires is named when missing, and nothing else is required', async () => {
      const required = requiredByContract(plural);
      const valid = await validPayload(t.http, meta);
      for (const name of required) {
        const { [name]: _omitted, ...body } = valid;
        const res = await t.http.post(`/${plural}`, body);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(res.body.messages).toContain(`${name} is required`);
      }
      // the required fields alone make a valid record (for most collections: an empty body)
      const minimal = Object.fromEntries(required.map((name) => [name, valid[name]]));
      const res = await t.http.post(`/${plural}?depth=0`, minimal);
      expect({ minimal, status: res.status, messages: res.body.messages }).toEqual({ minimal, status: 201 });
    });

    it('create many: the bad item is named by index and nothing is written', async () => {
      for (const { name, body, message } of await badBodies()) {
        const before = await count(meta);
        const good = await validPayload(t.http, meta);
        const afterSetup = await count(meta);
        const res = await t.http.post(`/batch/${plural}`, [good, body]);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(res.body.messages.every((m: string) => m.startsWith('[1] '))).toBe(true);
        expect(res.body.messages.some((m: string) => message.test(m.slice(4)))).toBe(true);
        expect(await count(meta)).toBe(afterSetup);
        expect(afterSetup).toBeGreaterThanOrEqual(before);
      }
    });

    it('update one: 400 and the record is unchanged', async () => {
      const record = await createRecord(t.http, plural);
      const before = (await t.http.get(`/${plural}/${record.id}?depth=0`)).body;
      for (const { name, bad, message } of await badBodies()) {
        const res = await t.http.patch(`/${plural}/${record.id}`, bad);
        expect({ name, status: res.status }).toEqual({ name, status: 400 });
        expect(res.body.messages.some((m: string) => message.test(m))).toBe(true);
      }
      expect((await t.http.get(`/${plural}/${record.id}?depth=0`)).body).toEqual(before);
    });

    it('find duplicates: a bad partial record is refused with its index', async () => {
      const [{ body, message }] = await badBodies();
      const res = await t.http.post(`/${plural}/duplicates`, { data: [body] });
      expect(res.status).toBe(400);
      expect(res.body.messages.some((m: string) => m.startsWith('[0] ') && message.test(m.slice(4)))).toBe(true);
    });
  });

  it('create many: a constraint violation names the index and writes nothing', async () => {
    const meta = ALL_COLLECTIONS.find((m) => m.plural === 'people')!;
    const before = await count(meta);
    const email = `dup-${Date.now()}@example.com`;
    const res = await t.http.post('/batch/people', [
      { emails: { primaryEmail: `other-${Date.now()}@example.com` } },
      { emails: { primaryEmail: email } },
      { emails: { primaryEmail: email } },
    ]);
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([
      `[1] A duplicate entry was detected: emails.primaryEmail '${email}' is already used by another record`,
      `[2] A duplicate entry was detected: emails.primaryEmail '${email}' is already used by another record`,
    ]);
    expect(await count(meta)).toBe(before);
  });

  it('a unique index over two fields names both (collections.json indexes: viewFields)', async () => {
    const field = await createRecord(t.http, 'viewFields');
    const res = await t.http.post('/viewFields', { fieldMetadataId: field.fieldMetadataId, viewId: field.viewId });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([
      `A duplicate entry was detected: fieldMetadataId and viewId (${field.fieldMetadataId}, ${field.viewId}) are already used together by another record`,
    ]);
  });

  it('create many: more than the maximum is refused before anything else', async () => {
    const res = await t.http.post(
      '/batch/companies',
      Array.from({ length: 201 }, () => ({ name: 'x' })),
    );
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual(['Maximum number of records to upsert is 200.']);
  });

  it('server-owned fields are read-only', async () => {
    const res = await t.http.post('/companies', { createdAt: '2020-01-01T00:00:00Z', updatedAt: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual(['createdAt is read-only', 'updatedAt is read-only']);
  });

  it('nullability: null is refused for non-nullable fields and accepted for nullable ones', async () => {
    const bad = await t.http.post('/companies', { name: null, domainName: null });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual(['name must not be null', 'domainName must not be null']);
    const ok = await t.http.post('/companies', { employees: null, linkedinLink: null });
    expect(ok.status).toBe(201);
    expect(ok.body.data.createCompany.linkedinLink).toBeNull();
  });

  it('composite sub-fields are validated and named by path', async () => {
    const res = await t.http.post('/people', {
      name: { firstName: 7, middleName: 'x' },
      emails: { additionalEmails: 'a@b.c' },
      phones: [],
    });
    expect(res.status).toBe(400);
    expect(res.body.messages).toEqual([
      'property name.middleName should not exist',
      'name.firstName must be a string',
      'emails.additionalEmails must be an array',
      'phones must be an object',
    ]);
  });

  it('dates, UUIDs and numbers are checked strictly', async () => {
    const res = await t.http.post('/apiKeys', { expiresAt: '2026-02-30T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(res.body.messages[0]).toMatch(/^expiresAt must be an ISO 8601 date-time/);
    const uuid = await t.http.post('/people', { companyId: 'not-a-uuid' });
    expect(uuid.body.messages).toEqual(["'not-a-uuid' is not a valid UUID (companyId)"]);
  });
});
