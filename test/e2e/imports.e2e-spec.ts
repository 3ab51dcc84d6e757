import { parse } from 'csv-parse/sync';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Json } from '../support/http';
import { badRequest, keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Imports (API.md section 17), end to end over HTTP on a real database: formats, operations and
 * options, every error code with its line, access, counters equal to the table's change, events,
 * dry run, cancel, Prefer: wait, idempotency, the size limit.
 */
describe('import', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      API_KEY_CACHE_TTL_MS: '0',
      IMPORT_MAX_BYTES: '64kb',
      // the webhook receiver listens on 127.0.0.1
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_POLL_MS: '50',
    });
    await t.http.post('/companies', { name: 'Acme', domainName: { primaryLinkUrl: 'https://acme.example' } });
  });
  afterAll(async () => t?.close());

  const csv = (lines: string[], eol = '\r\n') => lines.join(eol) + eol;
  const post = (plural: string, body: string, query = '', headers: Record<string, string> = {}, http = t.http) =>
    http.request('POST', `/${plural}/import${query}`, {
      raw: body,
      headers: { 'content-type': 'text/csv', prefer: 'wait=30', ...headers },
    });
  const report = async (id: string) =>
    parse((await t.http.get(`/imports/${id}/errors?format=csv`)).text, { columns: true }) as Json[];
  const codes = async (id: string) => (await report(id)).map((r: Json) => [Number(r.line), r.column, r.code]);
  const count = async (filter: string) =>
    (await t.http.get(`/people?limit=1&filter=${encodeURIComponent(filter)}`)).body.totalCount;
  const changes = async (since: string) =>
    (await t.http.get(`/changes?since=${since}&collections=people&limit=1000`)).body.data.changes;
  const head = async () => (await t.http.get('/changes/head')).body.data.token;

  it('creates every row of a CSV, a relation set by a unique value, with the events of API writes', async () => {
    const since = await head();
    const res = await post(
      'people',
      csv([
        'name.firstName,name.lastName,emails.primaryEmail,city,company.domainName.primaryLinkUrl,createdAt',
        'Ada,Lovelace,ada@example.com,London,https://acme.example,2020-01-02T03:04:05.000Z',
        'Alan,Turing,alan@example.com,"Wilmslow, UK",,',
      ]),
    );
    expect(res.status).toBe(200);
    const job = res.body.data.import;
    expect(job).toMatchObject({
      collection: 'people',
      operation: 'create',
      state: 'completed',
      atomic: true,
      dryRun: false,
    });
    expect(job.rows).toEqual({ read: 2, created: 2, updated: 0, unchanged: 0, failed: 0, unprocessed: 0 });
    expect(res.headers.get('location')).toBe(`/rest/imports/${job.id}`);
    const people = (await t.http.get('/people?depth=1&filter=city[in]:[London,"Wilmslow, UK"]')).body.data.people;
    const ada = people.find((p: Json) => p.name.firstName === 'Ada');
    expect(ada).toMatchObject({ createdAt: '2020-01-02T03:04:05.000Z', company: { name: 'Acme' } });
    // one change of the feed per record, as an API create; the audit row names the import
    const feed = await changes(since);
    expect(feed.map((c: Json) => c.eventName)).toEqual(['person.created', 'person.created']);
    const audit = (await t.http.get(`/auditLogs?filter=recordId[eq]:${ada.id}`)).body.data.auditLogs;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ name: 'person.created', context: { importId: job.id } });
  });

  it('reports every rejected row in line order with its code; atomic writes nothing and counts the rest unprocessed', async () => {
    const res = await post(
      'people',
      csv([
        'name.firstName,emails.primaryEmail,city,company.domainName.primaryLinkUrl,createdAt,position',
        'Bad,bad@example.com,Paris,,yesterday,two',
        '"Multi',
        'line",dup@example.com,Paris,,,',
        'Dup2,dup@example.com,Paris,,,',
        'Rel,rel@example.com,Paris,https://nowhere.example,,',
        'Short,short@example.com',
        'Taken,ada@example.com,Paris,,,',
        'Ok,ok@example.com,Paris,,2020-01-02T03:04:05.000Z,',
      ]),
    );
    const job = res.body.data.import;
    expect(job).toMatchObject({ state: 'failed', message: '5 rows rejected: nothing was written (atomic=true)' });
    expect(job.rows).toEqual({ read: 7, created: 0, updated: 0, unchanged: 0, failed: 5, unprocessed: 2 });
    // each rejected row once: line 2's two problems in one entry
    expect(await codes(job.id)).toEqual([
      [2, 'createdAt', 'INVALID_VALUE'],
      [5, 'emails.primaryEmail', 'DUPLICATE_IN_FILE'],
      [6, 'company.domainName.primaryLinkUrl', 'RELATION_NOT_FOUND'],
      [7, '', 'MALFORMED_ROW'],
      [8, 'emails.primaryEmail', 'UNIQUE_CONFLICT'],
    ]);
    expect((await report(job.id))[0].message).toMatch(/createdAt.*; position/);
    expect((await report(job.id))[1].message).toBe(
      "Line 3 names the same record (emails.primaryEmail 'dup@example.com')",
    );
    expect(await count('city[eq]:Paris')).toBe(0);
  });

  it('atomic=false writes the valid rows in checkpoints and reports the rest; the counters equal the table change', async () => {
    const inOslo = () => count('emails.primaryEmail[like]:"%@oslo.example"');
    const before = await inOslo();
    const since = await head();
    const lines = ['name.firstName,emails.primaryEmail,city'];
    for (let i = 0; i < 30; i++) lines.push(`P${i},p${i}@oslo.example,${i % 10 === 7 ? '' : 'Oslo'}`);
    lines[12] = 'P11,p3@oslo.example,Oslo'; // line 13: the email of line 5
    const job = (await post('people', csv(lines), '?atomic=false')).body.data.import;
    expect(job.state).toBe('completed');
    expect(job.rows).toEqual({ read: 30, created: 29, updated: 0, unchanged: 0, failed: 1, unprocessed: 0 });
    expect(await codes(job.id)).toEqual([[13, 'emails.primaryEmail', 'DUPLICATE_IN_FILE']]);
    expect(await inOslo()).toBe(before + 29);
    expect(await changes(since)).toHaveLength(29);
  });

  it('a value only the database refuses (a constraint no check knows): the write finds the row; atomic writes nothing', async () => {
    // the check pass of an atomic job writes no create and previews its updates: a row the
    // database refuses is met by the writing pass, which finds it by halves and rolls back
    await t.db.query(`ALTER TABLE "person" ADD CONSTRAINT "test_refused" CHECK ("jobTitle" <> 'refused') NOT VALID`);
    try {
      await post('people', csv(['emails.primaryEmail,jobTitle,city', 'kept@refusal.example,Chef,Rome']));
      const lines = ['emails.primaryEmail,jobTitle,city'];
      for (let i = 0; i < 9; i++) lines.push(`r${i}@refusal.example,Cook,Rome`);
      lines[4] = 'r3@refusal.example,refused,Rome'; // line 5: a create the database refuses
      lines.push('kept@refusal.example,refused,Rome'); // line 11: an update it refuses
      for (const operation of ['upsert', 'create']) {
        const rows = operation === 'create' ? lines.slice(0, 10) : lines;
        const job = (await post('people', csv(rows), `?operation=${operation}`)).body.data.import;
        const failed = operation === 'upsert' ? 2 : 1;
        expect(job).toMatchObject({
          state: 'failed',
          message: `${failed} rows rejected: nothing was written (atomic=true)`.replace('1 rows', '1 row'),
        });
        expect(await codes(job.id)).toEqual(
          [
            [5, '', 'INVALID_VALUE'],
            [11, '', 'INVALID_VALUE'],
          ].slice(0, failed),
        );
        expect(await count('city[eq]:Rome')).toBe(1);
      }
      const job = (await post('people', csv(lines), '?operation=upsert&atomic=false')).body.data.import;
      expect(job.rows).toEqual({ read: 10, created: 8, updated: 0, unchanged: 0, failed: 2, unprocessed: 0 });
      expect(await codes(job.id)).toEqual([
        [5, '', 'INVALID_VALUE'],
        [11, '', 'INVALID_VALUE'],
      ]);
      expect(await count('city[eq]:Rome')).toBe(9);
    } finally {
      await t.db.query('ALTER TABLE "person" DROP CONSTRAINT "test_refused"');
    }
  });

  it('upsert matches by id, then by each unique field: changed rows updated, equal rows unchanged (no event), others created', async () => {
    const ada = (await t.http.get('/people?filter=emails.primaryEmail[eq]:ada@example.com')).body.data.people[0];
    const since = await head();
    const job = (
      await post(
        'people',
        csv([
          'id,emails.primaryEmail,city,jobTitle',
          `${ada.id},,London,`,
          ',alan@example.com,Manchester,Professor',
          ',grace@example.com,Arlington,Admiral',
        ]),
        '?operation=upsert',
      )
    ).body.data.import;
    expect(job.rows).toEqual({ read: 3, created: 1, updated: 1, unchanged: 1, failed: 0, unprocessed: 0 });
    const feed = await changes(since);
    expect(feed.map((c: Json) => c.eventName).sort()).toEqual(['person.created', 'person.updated']);
    const alan = feed.find((c: Json) => c.eventName === 'person.updated');
    expect(alan.record).toMatchObject({ city: 'Manchester', jobTitle: 'Professor' });
    expect(alan.updatedFields.sort()).toEqual(['city', 'jobTitle']);
  });

  it('update needs a match (NOT_FOUND), blank=clear clears a field, a unique value of another record is a UNIQUE_CONFLICT', async () => {
    const job = (
      await post(
        'people',
        csv([
          'emails.primaryEmail,jobTitle,city',
          'alan@example.com,,Cambridge',
          'nobody@example.com,X,Y',
          'grace@example.com,,',
        ]),
        '?operation=update&blank=clear&atomic=false',
      )
    ).body.data.import;
    expect(job.rows).toMatchObject({ read: 3, updated: 2, failed: 1 });
    expect(await codes(job.id)).toEqual([[3, '', 'NOT_FOUND']]);
    const alan = (await t.http.get('/people?filter=emails.primaryEmail[eq]:alan@example.com')).body.data.people[0];
    expect(alan).toMatchObject({ jobTitle: '', city: 'Cambridge' });
    const ada = (await t.http.get('/people?filter=emails.primaryEmail[eq]:ada@example.com')).body.data.people[0];
    const conflict = (
      await post('people', csv(['id,emails.primaryEmail', `${ada.id},alan@example.com`]), '?operation=update')
    ).body.data.import;
    expect(await codes(conflict.id)).toEqual([[2, 'emails.primaryEmail', 'UNIQUE_CONFLICT']]);
  });

  it('max_errors stops at the rejected row max_errors + 1: rows before stay, the rest are unprocessed', async () => {
    const lines = ['name.firstName,emails.primaryEmail,city'];
    for (let i = 0; i < 10; i++)
      lines.push(`M${i},${[2, 4, 6, 8].includes(i) ? 'ada@example.com' : `m${i}@bergen.example`},Bergen`);
    const job = (await post('people', csv(lines), '?atomic=false&max_errors=2')).body.data.import;
    expect(job).toMatchObject({ state: 'failed', message: 'Stopped at the rejected row number 3 (max_errors=2)' });
    expect(job.rows).toEqual({ read: 10, created: 4, updated: 0, unchanged: 0, failed: 3, unprocessed: 3 });
    expect((await codes(job.id)).map((c) => c[0])).toEqual([4, 6, 8]);
    expect(await count('city[eq]:Bergen')).toBe(4);
  });

  it('a dry run checks every row as the real run does and writes nothing', async () => {
    const body = csv([
      'name.firstName,emails.primaryEmail,city',
      'D1,d1@example.com,Dry',
      'D2,ada@example.com,Dry',
      'D3,d3@example.com,Dry',
    ]);
    const since = await head();
    const dry = (await post('people', body, '?atomic=false&dry_run=true')).body.data.import;
    expect(dry).toMatchObject({ state: 'completed', dryRun: true });
    expect(await count('city[eq]:Dry')).toBe(0);
    expect(await changes(since)).toHaveLength(0);
    const real = (await post('people', body, '?atomic=false')).body.data.import;
    expect(dry.rows).toEqual(real.rows);
    expect(await codes(dry.id)).toEqual(await codes(real.id));
    expect(await count('city[eq]:Dry')).toBe(2);
  });

  it('rows pass the checks every API write makes beyond the fields (a role grants), with the messages of the API', async () => {
    const grants = (collection: string) => JSON.stringify([{ collection, actions: ['read'] }]).replace(/"/g, '""');
    const body = csv(['name,permissions', `Readers,"${grants('people')}"`, `Broken,"${grants('nopes')}"`]);
    const job = (await post('roles', body, '?atomic=false')).body.data.import;
    expect(job.rows).toMatchObject({ read: 2, created: 1, failed: 1 });
    const [rejected] = await report(job.id);
    expect(rejected).toMatchObject({ line: '3', code: 'INVALID_VALUE' });
    const api = await t.http.post('/roles', {
      name: 'Broken',
      permissions: JSON.parse(grants('nopes').replace(/""/g, '"')),
    });
    expect(rejected.message).toBe(api.body.messages.join('; '));
    expect((await post('nopes', body)).body.messages).toEqual(["object 'nopes' not found. eg: companies"]);
  });

  it('reads NDJSON, semicolons, a BOM and LF line ends', async () => {
    const ndjson = [
      '{"name":{"firstName":"N1"},"city":"Nd"}',
      '',
      '{"name":{"firstName":"N2"},"city":"Nd","nope":1}',
      '{bad json',
    ].join('\n');
    const job = (await post('people', ndjson, '?atomic=false', { 'content-type': 'application/x-ndjson' })).body.data
      .import;
    expect(job.rows).toMatchObject({ read: 3, created: 1, failed: 2 });
    expect((await codes(job.id)).map((c) => [c[0], c[2]])).toEqual([
      [3, 'INVALID_VALUE'],
      [4, 'MALFORMED_ROW'],
    ]);
    const semi = '\ufeff' + csv(['name.firstName;city', 'S1;Semi;colon', '"S;2";Semi'], '\n');
    const res = (await post('people', semi, '?delimiter=;&atomic=false')).body.data.import;
    expect(res.rows).toMatchObject({ read: 2, created: 1, failed: 1 });
    expect((await t.http.get('/people?filter=city[eq]:Semi')).body.data.people[0].name.firstName).toBe('S;2');
  });

  it('checks the columns and the parameters before anything is stored (400, 415, 413)', async () => {
    const jobs = async () => (await t.http.get('/imports?limit=200')).body.data.imports.length;
    const before = await jobs();
    expect((await post('people', csv(['name.firstName,nope,city,city', 'a,b,c,d']))).body).toEqual(
      badRequest("Column 'nope' is not a field of 'person'", "Column 'city' is repeated"),
    );
    expect((await post('people', 'a\n', '?operation=merge')).body.messages[0]).toMatch(
      /'operation' must be one of create, upsert, update/,
    );
    expect((await post('people', 'a\n', '?colour=red')).status).toBe(400);
    expect((await post('people', '{}', '', { 'content-type': 'application/json' })).status).toBe(415);
    const big = csv(['name.firstName', ...Array.from({ length: 9000 }, (_, i) => `name-${i}`)]);
    expect((await post('people', big)).status).toBe(413);
    expect(await jobs()).toBe(before);
  });

  it('access: create needs create, update needs update; hidden and read-only columns are refused by name; row filters reject rows', async () => {
    const reader = await keyWithRole(t, [{ collection: 'people', actions: ['read'] }]);
    expect((await post('people', csv(['city', 'X']), '', {}, reader.http)).status).toBe(403);
    const limited = await keyWithRole(t, [
      {
        collection: 'people',
        actions: ['read', 'create', 'update'],
        hiddenFields: ['phones'],
        readOnlyFields: ['jobTitle'],
        filter: 'city[eq]:Rome',
      },
      { collection: 'companies', actions: ['read'] },
    ]);
    expect(
      (await post('people', csv(['city,jobTitle,phones.primaryPhoneNumber', 'Rome,a,1']), '', {}, limited.http)).body,
    ).toEqual(badRequest("Field 'jobTitle' is not writable", "Field 'phones' is not writable"));
    const job = (
      await post(
        'people',
        csv(['name.firstName,city', 'R1,Rome', 'R2,Milan', 'R3,Rome']),
        '?atomic=false',
        {},
        limited.http,
      )
    ).body.data.import;
    expect(job.rows).toMatchObject({ created: 2, failed: 1 });
    expect(await codes(job.id)).toEqual([[3, '', 'FORBIDDEN_ROW']]);
    // a key sees its own jobs only; an admin key every job
    expect((await reader.http.get(`/imports/${job.id}`)).status).toBe(404);
    expect((await limited.http.get(`/imports/${job.id}`)).status).toBe(200);
    expect((await limited.http.get('/imports')).body.data.imports.map((j: Json) => j.id)).toEqual([job.id]);
    expect((await t.http.get(`/imports/${job.id}`)).status).toBe(200);
  });

  it('202 without Prefer: wait, then the job, its progress stream, its report as NDJSON; a finished job cannot be cancelled (409)', async () => {
    const res = await post('people', csv(['name.firstName,city', 'W1,Async', 'W2,']), '?atomic=false&blank=clear', {
      prefer: '',
    });
    expect(res.status).toBe(202);
    const { id } = res.body.data.import;
    const stream = await fetch(`${t.baseUrl}/imports/${id}/stream`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    const events = await stream.text();
    expect(events).toMatch(/event: done\ndata: \{.*"state":"completed"/);
    const job = (await t.http.get(`/imports/${id}`)).body.data.import;
    expect(job.rows).toMatchObject({ read: 2, created: 2 });
    expect((await t.http.get(`/imports/${id}/errors?format=ndjson`)).text).toBe('');
    expect((await t.http.post(`/imports/${id}/cancel`)).status).toBe(409);
    expect((await t.http.get(`/imports/${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`)).status).toBe(404);
  });

  it('Idempotency-Key: the same bytes and parameters give the first job back; anything else under the key is a 422', async () => {
    const body = csv(['name.firstName,emails.primaryEmail,city', 'I1,i1@example.com,Idem']);
    const first = await post('people', body, '', { 'idempotency-key': 'import-1' });
    const again = await post('people', body, '', { 'idempotency-key': 'import-1' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.import.id).toBe(first.body.data.import.id);
    expect((await post('people', body, '?atomic=false', { 'idempotency-key': 'import-1' })).status).toBe(422);
    expect(await count('city[eq]:Idem')).toBe(1);
  });

  it('webhooks: summary sends one import.completed / import.failed per job, records one per record event, none nothing', async () => {
    const received: Json[] = [];
    const server: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const hook = (await t.http.post('/webhooks', { targetUrl: url, operations: ['import.*', 'person.created'] })).body
      .data.createWebhook;
    const settle = () => new Promise((resolve) => setTimeout(resolve, 600));
    try {
      const body = (tag: string) => csv(['name.firstName,city', `${tag}1,Hooks`, `${tag}2,Hooks`]);
      const summary = (await post('people', body('S'))).body.data.import;
      const failed = (await post('people', csv(['createdAt', 'never']))).body.data.import;
      await settle();
      expect(received.map((r) => [r.eventName, r.import?.id, r.import?.state])).toEqual([
        ['import.completed', summary.id, 'completed'],
        ['import.failed', failed.id, 'failed'],
      ]);
      expect(received[0]).toMatchObject({ webhookId: hook.id, import: { rows: { created: 2 } } });
      received.length = 0;
      await post('people', body('D'), '?dry_run=true'); // writes nothing, sends nothing
      await post('people', body('R'), '?webhooks=records');
      await post('people', body('N'), '?webhooks=none');
      await settle();
      expect(received.map((r) => [r.eventName, r.record?.name?.firstName])).toEqual([
        ['person.created', 'R1'],
        ['person.created', 'R2'],
      ]);
    } finally {
      await t.http.delete(`/webhooks/${hook.id}`);
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
