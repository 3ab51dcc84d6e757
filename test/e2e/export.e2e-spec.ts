import { parse } from 'csv-parse/sync';
import { createRecord } from '../support/fixtures';
import type { Json } from '../support/http';
import { badRequest, forbidden, keyWithRole, RoleKey } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/** Records by id (the order of a list without order_by). */
function byId(records: Json[]): Json[] {
  return [...records].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * The rows of a CSV text read by a real RFC 4180 reader (csv-parse, not the service's writer),
 * strict about quotes and column counts, and splitting records at CR LF, a bare LF or a bare CR
 * as readers do: a line break left unquoted splits its record in two, and the count check fails.
 */
function parseCsv(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return parse(text, { record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: false });
}

/**
 * Exports (API.md section 15, last bullet): every matching record at depth 0, no page limit, as
 * NDJSON or CSV, the same records as the list gives; checked like a list; streamed in one
 * snapshot; a client that goes away releases the connection.
 */
describe('export', () => {
  let t: TestApp;
  let key: RoleKey;
  let people: Json[];
  const tricky = 'Zoë, "the" Ünïcode\nsecond line';

  // without order_by an export comes in storage order (its first row leaves at once): compared by id
  const inOrder = (query: string, records: Json[]) => (query.includes('order_by') ? records : byId(records));
  const ndjson = async (http: TestApp['http'], query: string) => {
    const res = await http.get(`/people/export?format=ndjson${query}`);
    expect(res.status).toBe(200);
    expect(res.text.endsWith('\n') || res.text === '').toBe(true);
    return inOrder(
      query,
      res.text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );
  };
  /** A record's CSV cell: composites by sub-field, null empty, arrays and objects as JSON. */
  const cellOf = (record: Json, column: string) => {
    const [field, sub] = column.split('.');
    const value = sub ? record[field]?.[sub] : record[field];
    if (value === null || value === undefined) return '';
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  };
  const list = async (http: TestApp['http'], query: string) => {
    const res = await http.get(`/people?depth=0&limit=200${query}`);
    expect(res.status).toBe(200);
    return inOrder(query, res.body.data.people);
  };

  beforeAll(async () => {
    t = await startTestApp({ API_KEY_CACHE_TTL_MS: '0', DB_POOL_SIZE: '3' });
    const company = (await t.http.post('/companies?depth=0', { name: 'Exportco' })).body.data.createCompany;
    const created = await t.http.post('/batch/people?depth=0', [
      {
        name: { firstName: tricky, lastName: 'O\'Brien; "q"' },
        emails: { primaryEmail: 'zoe@example.com', additionalEmails: ['a@x.com', 'b,c@x.com'] },
        phones: { primaryPhoneNumber: '5550100', primaryPhoneCountryCode: 'US', primaryPhoneCallingCode: '+1' },
        city: 'Oslo',
        jobTitle: 'Pilot',
        companyId: company.id,
      },
      { name: { firstName: 'Ann', lastName: 'Lee' }, city: 'Oslo', jobTitle: '' },
      { name: null, city: 'Paris' },
      { name: { firstName: 'Gone', lastName: 'Away' }, city: 'Oslo' },
    ]);
    expect(created.status).toBe(201);
    people = created.body.data.createPeople;
    expect((await t.http.delete(`/people/${people[3].id}?soft_delete=true`)).status).toBe(200);
    key = await keyWithRole(t, [
      { collection: 'people', actions: ['read'], hiddenFields: ['phones'], filter: 'city[eq]:Oslo' },
    ]);
  });
  afterAll(async () => t?.close());

  it('NDJSON: every record of the list at depth 0, one per line, as an attachment', async () => {
    const res = await t.http.get('/people/export?format=ndjson');
    expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="people.ndjson"');
    const exported = await ndjson(t.http, '');
    expect(exported).toEqual(await list(t.http, ''));
    expect(exported.map((p: Json) => p.id)).not.toContain(people[3].id);
    expect(exported.find((p: Json) => p.id === people[0].id).name.firstName).toBe(tricky);
  });

  it('CSV: RFC 4180 with a header row, composite sub-fields as dotted columns, arrays as JSON, null as empty', async () => {
    const res = await t.http.get('/people/export?format=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="people.csv"');
    const [header, ...unordered] = parseCsv(res.text);
    const rows = unordered.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    expect(header.slice(0, 4)).toEqual(['id', 'name.firstName', 'name.lastName', 'emails.primaryEmail']);
    expect(header).toContain('emails.additionalEmails');
    expect(header.slice(-3)).toEqual(['createdAt', 'updatedAt', 'deletedAt']);
    const records = await list(t.http, '');
    expect(rows.map((r) => r[0])).toEqual(records.map((p: Json) => p.id));
    // every cell is the record's value: composites by sub-field, null empty, arrays and objects as JSON
    for (const [i, row] of rows.entries()) expect(row).toEqual(header.map((c) => cellOf(records[i], c)));
    const zoe = rows.find((r) => r[0] === people[0].id)!;
    expect(zoe[1]).toBe(tricky);
    expect(zoe[header.indexOf('emails.additionalEmails')]).toBe('["a@x.com","b,c@x.com"]');
    const nameless = rows.find((r) => r[0] === people[2].id)!;
    expect(nameless.slice(1, 3)).toEqual(['', '']);
  });

  it('CSV: a value holding a comma, a quote, a CR or a LF is quoted; a real reader gets every cell back', async () => {
    const values = [
      'say "hi"',
      'a,b',
      'crlf\r\nline',
      'lf\nline',
      'cr\rline',
      'tab\there',
      '  spaced  ',
      'Zoë 日本',
      '',
      null,
    ];
    const created = await t.http.post(
      '/batch/people?depth=0',
      // text fields are never null: a null name (a composite) stands for null
      values.map((value) =>
        value === null
          ? { name: null, city: 'Trickytown' }
          : { name: { firstName: value, lastName: 'Tricky' }, jobTitle: value, city: 'Trickytown' },
      ),
    );
    expect(created.status).toBe(201);
    const query = '&filter=city[eq]:Trickytown&order_by=createdAt,id';
    const [header, ...rows] = parseCsv((await t.http.get(`/people/export?format=csv${query}`)).text);
    const records = await list(t.http, query);
    expect(rows).toHaveLength(values.length);
    for (const [i, row] of rows.entries()) expect(row).toEqual(header.map((c) => cellOf(records[i], c)));
    // one batch: records in id order, compared as sets of values
    const [first, job] = [header.indexOf('name.firstName'), header.indexOf('jobTitle')];
    expect(rows.map((r) => r[first]).sort()).toEqual(values.map((v) => v ?? '').sort());
    for (const row of rows) if (row[first]) expect(row[job]).toBe(row[first]);
  });

  it('filter, order_by and fields as in lists; soft-deleted records only when the filter names deletedAt', async () => {
    const query = '&filter=city[eq]:Oslo&order_by=name.firstName[DescNullsLast]&fields=id,name,city';
    const exported = await ndjson(t.http, query);
    expect(exported.map((p: Json) => p.id)).toEqual([people[0].id, people[1].id]);
    expect(exported).toEqual(await list(t.http, query));
    const deleted = await ndjson(t.http, '&filter=deletedAt[is]:NOT_NULL');
    expect(deleted.map((p: Json) => p.id)).toEqual([people[3].id]);
    const csv = parseCsv((await t.http.get(`/people/export?format=csv${query}`)).text);
    expect(csv[0]).toEqual(['id', 'name.firstName', 'name.lastName', 'city']);
    expect(csv.slice(1).map((r) => r[0])).toEqual([people[0].id, people[1].id]);
    const empty = await t.http.get('/people/export?format=csv&filter=city[eq]:Nowhere&fields=city');
    expect(empty.text).toBe('id,city\r\n');
  });

  it('bad parameters are a 400 in the error envelope before any byte', async () => {
    expect((await t.http.get('/people/export')).body).toEqual(badRequest('format is required: one of ndjson, csv'));
    expect((await t.http.get('/people/export?format=xml')).body).toEqual(
      badRequest("format 'xml' is invalid. Should be one of ndjson, csv"),
    );
    expect((await t.http.get('/people/export?format=csv&filter=foo[eq]:1')).body).toEqual(
      badRequest("field 'foo' does not exist in 'person' object"),
    );
    expect((await t.http.get('/people/export?format=csv&limit=5')).status).toBe(400);
    // a value is bound, never SQL, even where COPY takes it as a literal
    const quoted = await ndjson(
      t.http,
      `&filter=${encodeURIComponent(`city[in]:["x'); DROP TABLE person; --","\\\\"]`)}`,
    );
    expect(quoted).toEqual([]);
  });

  it('a role: hidden fields absent and refused, rows outside its filter left out, no read → 403', async () => {
    const exported = await ndjson(key.http, '');
    expect(exported.map((p: Json) => p.id).sort()).toEqual([people[0].id, people[1].id].sort());
    expect(exported.every((p: Json) => !('phones' in p))).toBe(true);
    expect(exported).toEqual(await list(key.http, ''));
    const csv = parseCsv((await key.http.get('/people/export?format=csv')).text);
    expect(csv[0].some((c) => c.startsWith('phones'))).toBe(false);
    expect(csv).toHaveLength(3);
    const hidden = "Field 'phones' is not readable";
    for (const query of [
      'fields=id,phones',
      'filter=phones.primaryPhoneNumber[eq]:5550100',
      'order_by=phones.primaryPhoneNumber',
    ]) {
      expect((await key.http.get(`/people/export?format=csv&${query}`)).body).toEqual(badRequest(hidden));
    }
    expect((await key.http.get('/companies/export?format=csv')).body).toEqual(
      forbidden(`API key '${key.name}' may not read companies`),
    );
  });

  it('records decoded in Node (secrets in clear) equal the list as well', async () => {
    const account = await createRecord(t.http, 'connectedAccounts', { accessToken: 'ya29.export' });
    const res = await t.http.get('/connectedAccounts/export?format=ndjson');
    const exported = byId(
      res.text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    );
    const listed = byId((await t.http.get('/connectedAccounts?depth=0')).body.data.connectedAccounts);
    expect(exported).toEqual(listed);
    expect(exported.find((a: Json) => a.id === account.id).accessToken).toBe('ya29.export');
    const csv = parseCsv((await t.http.get('/connectedAccounts/export?format=csv&fields=accessToken')).text);
    expect(csv).toEqual([
      ['id', 'accessToken'],
      [account.id, 'ya29.export'],
    ]);
  });

  it('X-Changes-Token: the export then GET /changes?since=<token> reproduces the live data after concurrent writes', async () => {
    const made = await t.http.post('/batch/people?depth=0', [
      { city: 'Feedville' },
      { city: 'Feedville' },
      { city: 'Feedville' },
    ]);
    const [updated, softDeleted, destroyed] = made.body.data.createPeople;
    const res = await fetch(`${t.baseUrl}/people/export?format=ndjson`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    expect(res.status).toBe(200);
    const token = res.headers.get('x-changes-token')!;
    expect(token).toEqual(expect.any(String));
    // writes while the export streams (PGlite's one connection queues them behind it)
    const writes = Promise.all([
      t.http.patch(`/people/${updated.id}`, { city: 'Bergen' }),
      t.http.post('/people?depth=0', { city: 'Newtown' }),
      t.http.delete(`/people/${softDeleted.id}?soft_delete=true`),
      t.http.delete(`/people/${destroyed.id}`),
    ]);
    const state = new Map<string, Json>();
    for (const line of (await res.text()).split('\n').filter(Boolean)) {
      const record = JSON.parse(line);
      state.set(record.id, record);
    }
    expect((await writes).map((w) => w.status)).toEqual([200, 201, 200, 200]);
    let since = token;
    for (let more = true; more;) {
      const page = await t.http.get(`/changes?since=${since}&collections=people`);
      expect(page.status).toBe(200);
      for (const change of page.body.data.changes) {
        if (change.record === null || change.record.deletedAt !== null) state.delete(change.recordId);
        else state.set(change.recordId, change.record);
      }
      [since, more] = [page.body.pageInfo.endCursor, page.body.pageInfo.hasNextPage];
    }
    const byId = (a: Json, b: Json) => a.id.localeCompare(b.id);
    expect([...state.values()].sort(byId)).toEqual((await ndjson(t.http, '')).sort(byId));
    expect(state.get(updated.id).city).toBe('Bergen');
  });

  it('a client that goes away mid-export stops it and releases the connection (pool not leaked)', async () => {
    // enough bytes that the export cannot fit in the sockets' buffers
    await t.db.query(
      `INSERT INTO "person" ("nameFirstName", "city", "avatarUrl") ` +
        `SELECT 'Bulk ' || g, 'Bulkville', repeat('x', 3000) FROM generate_series(1, 4000) g`,
    );
    const open = async (format: string) => {
      const abort = new AbortController();
      const res = await fetch(`${t.baseUrl}/people/export?format=${format}`, {
        headers: { authorization: `Bearer ${t.token}` },
        signal: abort.signal,
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      return { abort, reader };
    };
    for (let i = 0; i < 4; i++) (await open(i % 2 ? 'csv' : 'ndjson')).abort.abort();
    // a HEAD answers the headers and no body: its export stops too
    for (let i = 0; i < 4; i++) {
      const head = await fetch(`${t.baseUrl}/people/export?format=csv`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${t.token}` },
      });
      expect(head.status).toBe(200);
    }
    // nothing left running, and a pool of 3 connections (PGlite: 1) that leaked would leave these waiting
    const running = async () =>
      (
        await t.db.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY%' AND state = 'active'`,
        )
      ).map((r) => r.pid);
    for (let waited = 0; (await running()).length > 0; waited += 100) {
      if (waited > 5000) throw new Error('an export still runs after its client left');
      await new Promise((r) => setTimeout(r, 100));
    }
    const all = await t.http.get('/people/export?format=ndjson&fields=id&filter=city[eq]:Bulkville');
    expect(all.text.split('\n').filter(Boolean)).toHaveLength(4000);
    expect((await t.http.get('/people?limit=1&filter=city[eq]:Bulkville')).body.totalCount).toBe(4000);
  });

  it('a failure mid-stream is a truncated transfer, never a complete-looking answer (PostgreSQL)', async () => {
    if (t.database.kind !== 'postgres') return; // PGlite runs in this process: no server to lose
    const res = await fetch(`${t.baseUrl}/people/export?format=csv`, {
      headers: { authorization: `Bearer ${t.token}` },
    });
    const reader = res.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'COPY%'`,
    );
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'complete';
      })(),
    ).rejects.toThrow();
    expect((await t.http.get('/people/export?format=ndjson&fields=id')).status).toBe(200);
  });
});
