import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Json } from '../support/http';
import { badRequest, forbidden, keyWithRole, RoleKey } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Hidden and read-only fields (API.md section 14): never readable by any route, directly or as an
 * oracle (fields, filter, order_by, group_by, aggregate, relation paths, search, duplicates, audit
 * rows, MCP, OpenAPI), never writable.
 */
describe('role fields: hidden and read-only', () => {
  let t: TestApp;
  let key: RoleKey;
  let company: Json;
  let person: Json;
  const hidden = "Field 'phones' is not readable";
  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0' });
    key = await keyWithRole(t, [
      {
        collection: 'people',
        actions: ['read', 'create', 'update'],
        hiddenFields: ['phones'],
        readOnlyFields: ['jobTitle'],
      },
      { collection: 'companies', actions: ['read'] },
      { collection: 'auditLogs', actions: ['read'] },
    ]);
    company = (await t.http.post('/companies?depth=0', { name: 'Phoneco' })).body.data.createCompany;
    const created = await t.http.post('/people?depth=0', {
      name: { firstName: 'Hidden', lastName: 'Phone' },
      phones: { primaryPhoneNumber: '5550100', primaryPhoneCountryCode: 'US', primaryPhoneCallingCode: '+1' },
      jobTitle: 'Pilot',
      companyId: company.id,
    });
    person = created.body.data.createPerson;
  });
  afterAll(async () => t?.close());

  it('is absent from every record the key receives: lists, get one, relations, group-by samples, write answers', async () => {
    const one = (await key.http.get(`/people/${person.id}?depth=1`)).body.data.person;
    expect(one).not.toHaveProperty('phones');
    expect(one).toMatchObject({ jobTitle: 'Pilot', company: { id: company.id } });
    const list = (await key.http.get('/people?depth=0')).body.data.people;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((p: Json) => !('phones' in p))).toBe(true);
    const nested = (await key.http.get(`/companies/${company.id}?depth=1`)).body.data.company.people;
    expect(nested.map((p: Json) => p.id)).toEqual([person.id]);
    expect(nested[0]).not.toHaveProperty('phones');
    const groups = await key.http.get('/people/groupBy?group_by=[{"jobTitle":true}]&include_records_sample=true');
    expect(groups.body.flatMap((g: Json) => g.records).every((r: Json) => !('phones' in r))).toBe(true);
    const created = (await key.http.post('/people?depth=0', { city: 'Oslo' })).body.data.createPerson;
    expect(created).not.toHaveProperty('phones');
    expect((await t.http.get(`/people/${person.id}?depth=0`)).body.data.person.phones.primaryPhoneNumber).toBe(
      '5550100',
    );
  });

  it('cannot be named in fields, filter, order_by, group_by, aggregate, order_by_for_records or as the end of a relation path (400)', async () => {
    for (const query of [
      'fields=id,phones',
      'filter=phones.primaryPhoneNumber[eq]:5550100',
      'order_by=phones.primaryPhoneNumber[AscNullsLast]',
    ]) {
      const res = await key.http.get(`/people?${query}`);
      expect({ query, body: res.body }).toEqual({ query, body: badRequest(hidden) });
    }
    expect((await key.http.get('/people/groupBy?group_by=[{"phones":{"primaryPhoneNumber":true}}]')).body).toEqual(
      badRequest(hidden),
    );
    expect((await key.http.get('/people/groupBy?aggregate=["countEmptyPhonesPrimaryPhoneNumber"]')).body).toEqual(
      badRequest(hidden),
    );
    const sampleOrder = 'include_records_sample=true&order_by_for_records=phones.primaryPhoneNumber[AscNullsLast]';
    expect((await key.http.get(`/people/groupBy?${sampleOrder}`)).body).toEqual(badRequest(hidden));
    // through a relation to a collection the key cannot read
    expect((await key.http.get('/people/groupBy?order_by_for_records=company.accountOwner.userEmail')).body).toEqual(
      forbidden(`API key '${key.name}' may not read workspaceMembers`),
    );
    expect((await key.http.get('/companies?filter=people.phones.primaryPhoneNumber[eq]:5550100')).body).toEqual(
      badRequest(hidden),
    );
    // a relation path through a collection the key cannot read
    expect((await key.http.get('/people?filter=company.accountOwner.name.firstName[eq]:x')).body).toEqual(
      forbidden(`API key '${key.name}' may not read workspaceMembers`),
    );
  });

  it('cannot be written, nor can a read-only field: 400, nothing written', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n;
    const phones = { primaryPhoneNumber: '1' };
    expect((await key.http.post('/people', { phones })).body).toEqual(badRequest("Field 'phones' is not writable"));
    expect((await key.http.post('/batch/people', [{ city: 'A' }, { jobTitle: 'Boss' }])).body).toEqual(
      badRequest("[1] Field 'jobTitle' is not writable"),
    );
    expect((await key.http.post('/people?upsert=true', { id: person.id, phones })).body).toEqual(
      badRequest("Field 'phones' is not writable"),
    );
    expect((await key.http.patch(`/people/${person.id}`, { jobTitle: 'Boss' })).body).toEqual(
      badRequest("Field 'jobTitle' is not writable"),
    );
    expect((await key.http.patch('/people?filter=id[is]:NOT_NULL', { phones })).body).toEqual(
      badRequest("Field 'phones' is not writable"),
    );
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n).toBe(before);
    expect((await t.http.get(`/people/${person.id}?depth=0`)).body.data.person.jobTitle).toBe('Pilot');
  });

  it('is refused by its name whatever its value, before any value is checked, on every write route', async () => {
    const before = (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n;
    // values the validation would refuse: its message would tell the key a rule of a field it may not know
    const [phones, jobTitle] = [{ phones: 42 }, { jobTitle: null }];
    const notWritable = (name: string, at = '') => badRequest(`${at}Field '${name}' is not writable`);
    const cases: [string, () => Promise<{ body: Json }>, Json][] = [
      ['create', () => key.http.post('/people', { ...phones, city: 7 }), notWritable('phones')],
      ['batch', () => key.http.post('/batch/people', [{ city: 'A' }, jobTitle]), notWritable('jobTitle', '[1] ')],
      ['upsert', () => key.http.post('/people?upsert=true', { id: person.id, ...phones }), notWritable('phones')],
      [
        'batch upsert',
        () => key.http.post('/batch/people?upsert=true', [{ id: 'x', ...jobTitle }]),
        notWritable('jobTitle', '[0] '),
      ],
      ['update one', () => key.http.patch(`/people/${person.id}`, { ...jobTitle, city: 7 }), notWritable('jobTitle')],
      ['update many', () => key.http.patch('/people?filter=id[is]:NOT_NULL', phones), notWritable('phones')],
    ];
    for (const [route, res, expected] of cases)
      expect({ route, body: (await res()).body }).toEqual({ route, body: expected });
    expect((await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM person'))[0].n).toBe(before);
  });

  it('leaves search, duplicates and audit rows: no collection searched over it, no criterion, properties redacted', async () => {
    // people are searched over their phones: left out of the key's search, and named, refused
    const search = await key.http.get('/search?query=Phoneco');
    expect(search.body.data.search.map((r: Json) => r.objectNameSingular)).toEqual(['company']);
    expect((await key.http.get('/search?query=Hidden&objects=people')).body).toEqual(
      forbidden(`API key '${key.name}' may not search people`),
    );
    const other = await keyWithRole(t, [{ collection: 'people', actions: ['read'], hiddenFields: ['emails'] }]);
    expect((await other.http.post('/people/duplicates', { ids: [person.id] })).status).toBe(403);
    expect((await key.http.post('/people/duplicates', { ids: [person.id] })).status).toBe(200);
    // a change of hidden fields only: the row stays visible, with an empty diff
    await t.http.patch(`/people/${person.id}`, { phones: { primaryPhoneNumber: '5550199' } });
    const rows = (await key.http.get(`/auditLogs?depth=0&filter=recordId[eq]:${person.id}&order_by=createdAt`)).body
      .data.auditLogs;
    expect(rows.map((r: Json) => r.name)).toEqual(['person.created', 'person.updated']);
    expect(rows[0].properties.after).not.toHaveProperty('phones');
    expect(rows[1].properties.diff).toEqual({});
    expect(JSON.stringify(rows)).not.toContain('5550');
    // rows about a collection the key cannot read are invisible
    const opportunity = (await t.http.post('/opportunities?depth=0', { name: 'Secret deal' })).body.data
      .createOpportunity;
    const about = await key.http.get(`/auditLogs?filter=recordId[eq]:${opportunity.id}`);
    expect(about.body.data.auditLogs).toEqual([]);
    expect(about.body.totalCount).toBe(0);
  });

  it('MCP and OpenAPI show the key only what it may use', async () => {
    const client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key.token}` } },
      }),
    );
    const call = async (name: string, args: Json) => (await client.callTool({ name, arguments: args })) as Json;
    const collections = (await call('list_collections', {})).structuredContent.collections.map((c: Json) => c.name);
    expect(collections.sort()).toEqual(['auditLogs', 'companies', 'people']);
    const described = (await call('describe_collection', { collection: 'people' })).structuredContent.fields;
    expect(described.map((f: Json) => f.name)).not.toContain('phones');
    expect(described.find((f: Json) => f.name === 'jobTitle').writable).toBe(false);
    const found = (await call('get_record', { collection: 'people', id: person.id })).structuredContent.record;
    expect(found).not.toHaveProperty('phones');
    const denied = await call('delete_records', { collection: 'people', id: person.id });
    expect(JSON.parse(denied.content[0].text)).toEqual(forbidden(`API key '${key.name}' may not delete people`));
    const { tools } = await client.listTools();
    expect(
      (tools.find((tool) => tool.name === 'find_records')!.inputSchema.properties as Json).collection.enum.sort(),
    ).toEqual(['auditLogs', 'companies', 'people']);
    await client.close();

    const doc = (await key.http.get('/open-api/core')).body;
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/opportunities'))).toBe(false);
    expect(doc.paths['/people/{id}'].delete).toBeUndefined();
    expect(doc.paths['/people/{id}'].patch).toBeDefined();
    expect(doc.components.schemas.PersonForResponse.properties).not.toHaveProperty('phones');
    expect(doc.components.schemas.Person.properties).not.toHaveProperty('jobTitle');
    expect(doc.components.schemas.PersonForResponse.properties).toHaveProperty('jobTitle');
    expect(doc.components.schemas).not.toHaveProperty('Opportunity');
    const full = (await t.http.get('/open-api/core', { anonymous: true })).body;
    expect(full.components.schemas.PersonForResponse.properties).toHaveProperty('phones');
    const invalid = await t.http.get('/open-api/core', { headers: { authorization: 'Bearer crm_nope' } });
    expect(invalid.status).toBe(401);
  });
});
