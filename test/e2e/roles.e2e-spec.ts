import { createRecord } from '../support/fixtures';
import type { Json } from '../support/http';
import { badRequest, forbidden, keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/** Roles for API keys (API.md section 14): grants checked when written, actions, admin-only collections, deletion. */
describe('roles', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
  });
  afterAll(async () => t?.close());

  const count = async (table: string) =>
    (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))[0].n;

  it('a role is checked when written: one message per problem, nothing written', async () => {
    const before = await count('role');
    const res = await t.http.post('/roles', {
      name: 'bad',
      permissions: [
        { collection: 'nope', actions: ['read'] },
        {
          collection: 'people',
          actions: ['read', 'fly'],
          hiddenFields: ['phones', 'nope'],
          readOnlyFields: ['phones'],
        },
        { collection: 'apiKeys', actions: ['read'] },
        { collection: 'people', actions: ['read'] },
        { collection: 'companies', actions: ['read'], filter: 'employees[gt]:ten', color: 'red' },
        { collection: 'opportunities', actions: ['read'], filter: 'company.name[eq]:Acme' },
      ],
    });
    expect(res.body).toEqual(
      badRequest(
        "permissions[0]: unknown collection 'nope'",
        "permissions[1]: unknown action 'fly'",
        "permissions[1]: unknown field 'nope' in hiddenFields",
        "permissions[1]: field 'phones' is both hidden and read-only",
        "permissions[2]: 'apiKeys' is admin only; no grant opens it",
        "permissions[3]: a second grant for 'people' (at most one per collection)",
        "permissions[4]: unknown property 'color'",
        "permissions[4].filter (companies): Invalid filter value 'ten' for field 'employees': expected a number",
        "permissions[5].filter (opportunities): 'company.name' is a relation path; a grant filters on its own fields",
      ),
    );
    const notList = await t.http.post('/roles', { name: 'bad', permissions: { collection: 'people' } });
    expect(notList.body).toEqual(badRequest('permissions must be an array of grants'));
    const good = (await t.http.post('/roles', { name: 'good', permissions: [] })).body.data.createRole;
    const patch = await t.http.patch(`/roles/${good.id}`, {
      permissions: [{ collection: 'roles', actions: ['read'] }],
    });
    expect(patch.body).toEqual(badRequest("permissions[0]: 'roles' is admin only; no grant opens it"));
    expect(await count('role')).toBe(before + 1);
  });

  it('a key may do the actions its role grants, and nothing else: a 403 before anything runs', async () => {
    const reader = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    const person = await createRecord(t.http, 'people', { city: 'Oslo' });
    expect((await reader.http.get(`/people/${person.id}?depth=0`)).status).toBe(200);
    expect((await reader.http.get('/people?depth=0')).status).toBe(200);
    expect((await reader.http.get('/people/groupBy?group_by=[{"city":true}]')).status).toBe(200);
    expect((await reader.http.post('/people/duplicates', { ids: [person.id] })).status).toBe(200);
    const refused = forbidden(`API key '${reader.name}' may not create people`);
    expect(await reader.http.post('/people', { city: 'Bergen' })).toMatchObject({ status: 403, body: refused });
    expect((await reader.http.post('/batch/people', [{ city: 'Bergen' }])).body).toEqual(refused);
    expect((await reader.http.patch(`/people/${person.id}`, { city: 'Bergen' })).body).toEqual(
      forbidden(`API key '${reader.name}' may not update people`),
    );
    const people = await count('person');
    const wipe = await reader.http.delete('/people?filter=id[is]:NOT_NULL');
    expect(wipe.body).toEqual(forbidden(`API key '${reader.name}' may not delete people`));
    expect(await count('person')).toBe(people);
    expect((await reader.http.patch('/people/merge', { ids: [person.id, person.id] })).status).toBe(403);
    expect((await reader.http.get('/companies')).body).toEqual(
      forbidden(`API key '${reader.name}' may not read companies`),
    );
    // upserts need create for what they create and update for what they match
    const creator = await keyWithRole(t, [{ collection: 'people', actions: ['read', 'create'] }]);
    const email = `${Date.now()}@roles.test`;
    const created = await creator.http.post('/people?upsert=true', { emails: { primaryEmail: email } });
    expect(created.status).toBe(201);
    const matched = await creator.http.post('/people?upsert=true', { emails: { primaryEmail: email }, city: 'X' });
    expect(matched.body).toEqual(forbidden(`API key '${creator.name}' may not update people`));
  });

  it('apiKeys, roles and webhooks are admin only, whatever the grants; a key with no role or an admin role does everything', async () => {
    const everything = await keyWithRole(t, [{ collection: '*', actions: ['read', 'create', 'update', 'delete'] }]);
    for (const plural of ['apiKeys', 'roles', 'webhooks'])
      expect({ plural, status: (await everything.http.get(`/${plural}`)).status }).toEqual({ plural, status: 403 });
    const mint = await everything.http.post('/roles', { name: 'escalate', admin: true });
    expect(mint.status).toBe(403);
    expect((await everything.http.get('/companies')).status).toBe(200);
    const admin = await keyWithRole(t, [], { admin: true });
    expect((await admin.http.get('/apiKeys')).status).toBe(200);
    expect((await t.http.get('/roles')).status).toBe(200);
  });

  it('a change of a role or of a key’s roleId holds with the next lookup (cache TTL 0 here)', async () => {
    const key = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    expect((await key.http.get('/companies')).status).toBe(403);
    await t.http.patch(`/roles/${key.roleId}`, { permissions: [{ collection: 'companies', actions: ['read'] }] });
    expect((await key.http.get('/companies')).status).toBe(200);
    expect((await key.http.get('/people')).status).toBe(403);
    await t.http.patch(`/apiKeys/${key.keyId}`, { roleId: null });
    expect((await key.http.get('/people')).status).toBe(200);
  });

  it('a role in use cannot be hard-deleted (400 naming how many keys use it); soft-deleted, it grants nothing', async () => {
    const key = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    const refused = await t.http.delete(`/roles/${key.roleId}`);
    expect(refused.body).toEqual(
      badRequest(
        '1 apiKeys point at this role (roleId): a role in use cannot be hard-deleted; point them elsewhere first',
      ),
    );
    const many = await t.http.delete(`/roles?filter=id[in]:[${key.roleId}]`);
    expect(many.status).toBe(400);
    expect(many.body.messages[0]).toMatch(/^1 apiKeys point at this role \(roleId\)/);
    expect((await t.http.get(`/roles/${key.roleId}?depth=0`)).status).toBe(200);
    await t.http.delete(`/roles/${key.roleId}?soft_delete=true`);
    expect((await key.http.get('/people')).body).toEqual(forbidden(`API key '${key.name}' may not read people`));
    await t.http.patch(`/roles/${key.roleId}/restore`);
    expect((await key.http.get('/people')).status).toBe(200);
    await t.http.patch(`/apiKeys/${key.keyId}`, { roleId: null });
    expect((await t.http.delete(`/roles/${key.roleId}`)).status).toBe(200);
  });

  it('the key of a role is related to it (depth), and keys are listed by role', async () => {
    const key = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    const found = await t.http.get(`/apiKeys/${key.keyId}?depth=1`);
    expect(found.body.data.apiKey).toMatchObject({ roleId: key.roleId, role: { id: key.roleId } });
    const role = await t.http.get(`/roles/${key.roleId}?depth=1`);
    expect(role.body.data.role.apiKeys.map((k: Json) => k.id)).toEqual([key.keyId]);
  });
});
