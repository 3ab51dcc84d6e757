import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { ALL_COLLECTIONS } from '../support/fixtures';
import { answerViolations, LEAK } from '../support/fuzz-checks';
import { Http, HttpResponse, Json } from '../support/http';
import { keyWithRole } from '../support/keys';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Fuzzing every route kind with random bodies, query strings and paths (fast-check, fixed seed,
 * 2,400 requests): never a 5xx, always the error envelope on errors, no SQL / stack / path text
 * in any body, and the row counts change only by what successful requests created.
 */
const SEED = 424242;
const RUNS = 2400;
const PLURALS = ALL_COLLECTIONS.map((m) => m.plural);
const FIELD_NAMES = [...new Set(ALL_COLLECTIONS.flatMap((m) => m.fields.map((f) => f.name)))];
const EVENT_TABLES = new Set(['auditLog', 'timelineActivity']); // written as side effects of writes

const weird = fc.oneof(
  fc.constantFrom(
    '',
    'NULL',
    '\u0000',
    'a\u0000b',
    '../../etc/passwd',
    '%00',
    '{"$ne":1}',
    "'; DROP TABLE person; --",
    '1e309',
    '-0',
    'NaN',
  ),
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
);
/** UUIDs in either case (upper-case hex is a valid UUID), for ids and join columns. */
const anyCaseUuid = fc.boolean().map((upper) => (upper ? randomUUID().toUpperCase() : randomUUID()));
const scalar = fc.oneof(
  weird,
  anyCaseUuid,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(1e308, -1e308, 2 ** 63, Number.MAX_SAFE_INTEGER),
);
const jsonValue = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(
        fc.constantFrom(...FIELD_NAMES, '__proto__', 'constructor', 'prototype', 'id', 'createdAt'),
        fc.string({ maxLength: 8 }),
      ),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;
const record = fc.dictionary(fc.constantFrom(...FIELD_NAMES, '__proto__', 'id', 'deletedAt', 'x'), jsonValue, {
  maxKeys: 6,
});
const body = fc.oneof(
  record,
  jsonValue,
  fc.array(record, { maxLength: 3 }),
  fc.record({ data: fc.array(record, { maxLength: 2 }) }),
  fc.record({ ids: fc.array(weird, { maxLength: 2 }) }),
);
const query = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'filter',
      'order_by',
      'limit',
      'depth',
      'fields',
      'starting_after',
      'ending_before',
      'soft_delete',
      'token',
    ),
    fc.string({ maxLength: 6 }),
  ),
  weird,
  { maxKeys: 3 },
);
const collection = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLURALS) },
  { weight: 1, arbitrary: weird.map(encodeURIComponent) },
);
const id = fc.oneof(anyCaseUuid, weird.map(encodeURIComponent), fc.constantFrom('__existing__', '__EXISTING__'));
/** Bodies that are no JSON value at all, or `null`: a write must refuse them (never 2xx). */
const noRecord = fc.constantFrom('null', '', ' ', '\n');

/** An import's body: a CSV of field names and odd cells, or NDJSON lines of records and odd text. */
const csvCell = weird.map((v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v));
const importBody = fc.oneof(
  fc
    .tuple(
      fc.array(
        fc.oneof(fc.constantFrom(...FIELD_NAMES, 'id', 'name.firstName', 'company.domainName.primaryLinkUrl'), weird),
        {
          minLength: 1,
          maxLength: 4,
        },
      ),
      fc.array(fc.array(csvCell, { maxLength: 4 }), { maxLength: 3 }),
    )
    .map(([header, rows]) => [header.join(','), ...rows.map((row) => row.join(','))].join('\r\n')),
  fc
    .array(
      fc.oneof(
        record.map((r) => JSON.stringify(r)),
        weird,
      ),
      { maxLength: 3 },
    )
    .map((lines) => lines.join('\n')),
);
const importQuery = fc.dictionary(
  fc.oneof(
    fc.constantFrom('operation', 'atomic', 'max_errors', 'blank', 'delimiter', 'webhooks'),
    fc.string({ maxLength: 6 }),
  ),
  fc.oneof(weird, fc.constantFrom('create', 'upsert', 'update', 'false', 'true', '0', 'clear', 'tab', 'none')),
  { maxKeys: 3 },
);

type Request = {
  method: string;
  path: string;
  body?: unknown;
  raw?: string;
  contentType?: string;
  mustFail?: boolean;
};
const request: fc.Arbitrary<Request> = fc.oneof(
  fc.record({
    method: fc.constant('GET'),
    path: fc.tuple(collection, query).map(([c, q]) => `/${c}?${new URLSearchParams(q as Record<string, string>)}`),
  }),
  fc.record({ method: fc.constant('GET'), path: fc.tuple(collection, id).map(([c, i]) => `/${c}/${i}`) }),
  fc.record({ method: fc.constant('POST'), path: collection.map((c) => `/${c}`), body }),
  fc.record({ method: fc.constant('POST'), path: collection.map((c) => `/batch/${c}`), body }),
  fc.record({ method: fc.constant('POST'), path: collection.map((c) => `/${c}/duplicates`), body }),
  fc.record({ method: fc.constant('PATCH'), path: fc.tuple(collection, id).map(([c, i]) => `/${c}/${i}`), body }),
  fc.record({ method: fc.constant('PATCH'), path: fc.tuple(collection, id).map(([c, i]) => `/${c}/${i}/restore`) }),
  fc.record({
    method: fc.constant('DELETE'),
    path: fc
      .tuple(
        collection,
        fc.constant('').map(() => randomUUID()),
        query,
      )
      .map(([c, i, q]) => `/${c}/${i}?${new URLSearchParams(q as Record<string, string>)}`),
  }),
  fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
    path: fc.array(weird.map(encodeURIComponent), { maxLength: 5 }).map((s) => `/${s.join('/')}`),
  }),
  fc.record({ method: fc.constant('POST'), path: collection.map((c) => `/${c}`), raw: fc.string({ maxLength: 40 }) }),
  fc.record({
    method: fc.constant('POST'),
    path: fc
      .tuple(fc.constantFrom(...PLURALS), fc.constantFrom('/{c}', '/batch/{c}', '/{c}/duplicates'))
      .map(([c, p]) => p.replace('{c}', c)),
    raw: noRecord,
    mustFail: fc.constant(true),
  }),
  fc.record({
    method: fc.constant('PATCH'),
    path: fc.tuple(fc.constantFrom(...PLURALS), id).map(([c, i]) => `/${c}/${i}`),
    raw: noRecord,
    mustFail: fc.constant(true),
  }),
  // the import: always a dry run (its job writes nothing, so the row counts below hold), any body and type
  fc.record({
    method: fc.constant('POST'),
    path: fc
      .tuple(collection, importQuery)
      .map(([c, q]) => `/${c}/import?${new URLSearchParams({ ...(q as Record<string, string>), dry_run: 'true' })}`),
    raw: importBody,
    contentType: fc.constantFrom('text/csv', 'application/x-ndjson', 'application/json', 'text/plain'),
  }),
);

describe('fuzz: random requests against every route kind', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  /**
   * Waits for the import jobs the requests started (dry runs) to end, then what is wrong with them:
   * one still running, a failure message or an error report that leaks, a report that is no 200.
   */
  async function settledImports(): Promise<string[]> {
    const found: string[] = [];
    let jobs: Json[] = [];
    for (let i = 0; i < 300; i++) {
      jobs = [];
      let after = '';
      for (;;) {
        const page = await t.http.get(`/imports?limit=200${after}`);
        jobs.push(...page.body.data.imports);
        if (!page.body.pageInfo.hasNextPage) break;
        after = `&starting_after=${page.body.pageInfo.endCursor}`;
      }
      if (!jobs.some((job) => job.state === 'queued' || job.state === 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const job of jobs) {
      const label = `import ${job.id} of ${job.collection} (${job.state})`;
      if (job.state === 'queued' || job.state === 'running') found.push(`${label} did not end`);
      if (job.dryRun !== true) found.push(`${label} is no dry run`);
      if (LEAK.test(job.message ?? '')) found.push(`${label} leaks: ${job.message}`);
      const report = await t.http.get(`/imports/${job.id}/errors?format=ndjson`);
      if (report.status !== 200 || LEAK.test(report.text))
        found.push(`${label} errors -> ${report.status} ${report.text.slice(0, 200)}`);
    }
    return found;
  }

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const meta of ALL_COLLECTIONS) {
      if (EVENT_TABLES.has(meta.table)) continue;
      const [{ n }] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${meta.table}"`);
      out[meta.plural] = n;
    }
    return out;
  }

  it(`${RUNS} requests: no 5xx, always the envelope, nothing leaked, only successful creates change row counts`, async () => {
    const existing = (await t.http.post('/companies?depth=0', { name: 'Fuzzed' })).body.data.createCompany.id;
    const before = await counts();
    const created: Record<string, number> = {};
    const violations: string[] = [];
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const path = req.path.replace('__existing__', existing).replace('__EXISTING__', existing.toUpperCase());
        let res: HttpResponse;
        try {
          res =
            req.raw !== undefined
              ? await t.http.request(req.method, path, {
                  raw: req.raw,
                  headers: { 'content-type': req.contentType ?? 'application/json' },
                })
              : await t.http.request(req.method, path, req.body === undefined ? {} : { body: req.body });
        } catch (error) {
          // an undocumented status or an OpenAPI mismatch is a violation too
          violations.push(`${req.method} ${path}: ${(error as Error).message.split('\n').slice(0, 3).join(' ')}`);
          return;
        }
        sent += 1;
        if (req.mustFail && res.status < 400)
          violations.push(`${req.method} ${path} with body '${req.raw}' -> ${res.status}`);
        violations.push(...answerViolations(`${req.method} ${path}`, res));
        if (res.status === 201) {
          const plural = path.split('?')[0].split('/').filter(Boolean).pop()!;
          const value = Object.values(res.body.data)[0];
          created[plural] = (created[plural] ?? 0) + (Array.isArray(value) ? value.length : 1);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    violations.push(...(await settledImports()));
    expect(violations).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(2000);
    const after = await counts();
    for (const plural of Object.keys(before)) {
      expect({ plural, rows: after[plural] }).toEqual({ plural, rows: before[plural] + (created[plural] ?? 0) });
    }
  });

  /**
   * The same random requests with a restricted key (API.md section 14): hidden fields (seeded with
   * marker values), read-only fields and a row filter on several collections. Never a 5xx, always
   * the envelope, never a hidden field's name as a key nor a marker anywhere in an answer.
   */
  it('with a restricted key: no 5xx, always the envelope, never a hidden field or a hidden value', async () => {
    const marker = `HIDDENMARK${Date.now().toString(36)}`;
    const hidden: Record<string, string[]> = {
      people: ['jobTitle'],
      companies: ['addressOld'],
      opportunities: ['probability'],
    };
    const names = Object.values(hidden).flat();
    // a hidden name is a field of its collection only, so no other record may carry it as a key
    for (const name of names)
      expect(ALL_COLLECTIONS.filter((m) => m.fields.some((f) => f.name === name)).length).toBe(1);
    const all = ['read', 'create', 'update', 'delete'];
    const key = await keyWithRole(t, [
      {
        collection: 'people',
        actions: all,
        hiddenFields: hidden.people,
        readOnlyFields: ['city'],
        filter: 'city[eq]:Oslo',
      },
      {
        collection: 'companies',
        actions: all,
        hiddenFields: hidden.companies,
        readOnlyFields: ['employees'],
        filter: 'employees[gte]:10',
      },
      {
        collection: 'opportunities',
        actions: ['read', 'update'],
        hiddenFields: hidden.opportunities,
        filter: 'stage[eq]:NEW',
      },
      { collection: 'auditLogs', actions: ['read'] },
      { collection: 'timelineActivities', actions: ['read'] },
    ]);
    const company = (
      await t.http.post('/companies?depth=0', { name: 'Seen', employees: 50, addressOld: `${marker}-a` })
    ).body.data.createCompany.id;
    await t.http.post('/companies?depth=0', { name: 'Unseen', employees: 1, addressOld: `${marker}-b` });
    for (const city of ['Oslo', 'Bergen'])
      await t.http.post('/people?depth=0', { city, jobTitle: `${marker}-${city}`, companyId: company });
    for (const stage of ['NEW', 'MEETING'])
      await t.http.post('/opportunities?depth=0', {
        name: stage,
        stage,
        probability: `${marker}-${stage}`,
        companyId: company,
      });
    const http = new Http(t.baseUrl, key.token);
    const violations: string[] = [];
    const keysIn = (value: Json, found: Set<string>): Set<string> => {
      if (Array.isArray(value)) value.forEach((v) => keysIn(v, found));
      else if (value && typeof value === 'object')
        for (const [k, v] of Object.entries(value)) {
          if (names.includes(k)) found.add(k);
          keysIn(v, found);
        }
      return found;
    };
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const path = req.path.replace('__existing__', company).replace('__EXISTING__', company.toUpperCase());
        const res =
          req.raw !== undefined
            ? await http.request(req.method, path, {
                raw: req.raw,
                headers: { 'content-type': req.contentType ?? 'application/json' },
              })
            : await http.request(req.method, path, req.body === undefined ? {} : { body: req.body });
        sent += 1;
        const label = `${req.method} ${path}`;
        violations.push(...answerViolations(label, res));
        if (res.text.includes(marker))
          violations.push(`${label} -> ${res.status} shows a hidden value: ${res.text.slice(0, 200)}`);
        const leaked = [...keysIn(res.body, new Set())];
        if (leaked.length) violations.push(`${label} -> ${res.status} has hidden fields ${leaked.join(', ')}`);
      }),
      { seed: SEED + 1, numRuns: 600, endOnFailure: true },
    );
    violations.push(...(await settledImports()));
    expect(violations).toEqual([]);
    expect(sent).toBe(600);
    // the markers are there to be found: the admin sees them
    expect((await t.http.get('/people?depth=0&limit=60')).text).toContain(marker);
  });
});
