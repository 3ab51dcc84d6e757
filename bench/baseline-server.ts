/**
 * BASELINE of the benchmark: a minimal node:http + `pg` server that answers the benchmark's
 * requests with the same SQL the service sends for them (read from PostgreSQL's statement log),
 * on the same tables and columns, with the same bearer check and the same JSON envelopes
 * (API.md), and that writes the same change-feed / audit-log / timeline / webhook-outbox rows in the statement
 * of each change, as data-modifying CTEs over the relation of its events (as the service's event
 * bus, src/core/events/event-bus.ts, and src/core/records/eventful-statements.ts): creates and
 * updates of one record are one statement without BEGIN/COMMIT, an update many one statement in
 * a transaction (for its work_mem), upserts compute their events in Node and bind them as JSON.
 * Statements the service names (prepared once per connection) are named here too. When the
 * service's SQL changes, this file must follow (bench/README.md says how to compare them).
 *
 * It is written plainly, as a careful engineer would write a small server for these routes:
 * parameterized queries, JSON.parse / JSON.stringify, a hand-written field table for the two
 * collections (people, companies), light type checks of request bodies. No framework, no
 * validation library, no rate limiting, no security headers, no OpenAPI: what is left between
 * this and the service is what the service's stack costs.
 *
 * What it supports (all the benchmark needs; anything else is a 404 or a 400):
 *   GET    /rest/people/:id?depth=0|1        GET /rest/companies/:id?depth=0
 *   GET    /rest/people|companies?limit&depth&filter=<field>[eq|gt|gte|lt|lte]:<value>&order_by&starting_after
 *          (filters on one field; order_by on a few columns, as the service writes it; people at
 *          depth 0 or 1, companies at depth 0; header `Prefer: count=none` skips the count query)
 *   POST   /rest/people|companies?depth=0        POST /rest/batch/people|companies?depth=0
 *   PATCH  /rest/people|companies/:id?depth=0    POST /rest/people|companies/duplicates?depth=0
 *   PATCH  /rest/people|companies?filter=<f>[op]:<v>,...&depth=0   (update many: a top-level comma
 *          list of predicates on one or more filterable fields, at most BULK_MAX records)
 *   POST   /rest/batch/people|companies?upsert=true&depth=0   (upsert many, matched by id and by
 *          the unique field: emails.primaryEmail / domainName.primaryLinkUrl)
 *   GET    /rest/people?filter=company.<field>[op]:<value>   (a filter through the many-to-one company)
 *   GET    /rest/opportunities/groupBy?group_by=[{"stage":true}]&aggregate=["sum|min|max|avgAmountAmountMicros"]
 *   GET    /rest/search?query=<words>&limit   (every searchable collection, first page)
 *   GET    /health (no key)
 *
 * Environment: DATABASE_URL, PORT, HOST, DB_POOL_SIZE (10, as the service), API_KEY_CACHE_TTL_MS
 * (2000, as the service), BULK_MAX (10000, as the service), BASELINE_CURSOR_KEY (hex; signs its own cursors, see lib/baseline-cursor.ts).
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { Pool, PoolClient, types as pgTypes } from 'pg';
import { decodeBaselineCursor, encodeBaselineCursor } from './lib/baseline-cursor';

const env = process.env;
const DATABASE_URL = env.DATABASE_URL;
if (!DATABASE_URL) throw new Error('DATABASE_URL is required');
const PORT = Number(env.PORT ?? 3100);
const HOST = env.HOST ?? '127.0.0.1';
const CURSOR_KEY = Buffer.from(env.BASELINE_CURSOR_KEY ?? '00'.repeat(32), 'hex');
const API_KEY_CACHE_TTL_MS = Number(env.API_KEY_CACHE_TTL_MS ?? 2000);
const PAGE_SIZE_DEFAULT = 60;
const PAGE_SIZE_MAX = 200;
const RELATION_LIMIT = 60;
const BATCH_MAX = 200;
const MAX_DUPLICATES = 60;
const BODY_LIMIT = 10 * 1024 * 1024;
const BULK_MAX = Number(env.BULK_MAX ?? 10_000);

/* ------------------------------------------------------------------ database */

/** The service's type parsers: bigint as number; timestamps and numerics as PostgreSQL's text. */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case pgTypes.builtins.INT8:
        return (value: string) => Number(value);
      case pgTypes.builtins.DATE:
      case pgTypes.builtins.TIMESTAMPTZ:
      case pgTypes.builtins.TIMESTAMP:
      case pgTypes.builtins.NUMERIC:
        return (value: string) => value;
      default:
        return pgTypes.getTypeParser(oid, format);
    }
  },
};

/** The same pool settings as the service on PostgreSQL (src/core/database/data-source-options.ts). */
const pool = new Pool({
  connectionString: DATABASE_URL,
  max: Number(env.DB_POOL_SIZE ?? 10),
  connectionTimeoutMillis: 3000,
  idleTimeoutMillis: 30_000,
  statement_timeout: 30_000,
  keepAlive: true,
  types,
  application_name: 'crm-bench-baseline',
  // the service's session settings (JIT off: compiling costs its big statements more than it saves)
  options: '-c TimeZone=UTC -c jit=off',
});
pool.on('error', (error) => process.stderr.write(`idle connection error: ${error.message}\n`));

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- rows as pg parses them, read field by field like the service's
type Row = Record<string, any>;

async function query(text: string, values?: unknown[]): Promise<Row[]> {
  return (await pool.query(text, values)).rows;
}

/** One transaction: COMMIT when `work` resolves, ROLLBACK when it throws. */
async function transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((e: Error) => (broken = e));
    throw error;
  } finally {
    client.release(broken);
  }
}

/* ------------------------------------------------------------------ errors */

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly messages: string[],
  ) {
    super(messages.join('; '));
  }
}
const badRequest = (...messages: string[]) => new HttpError(400, 'BadRequestException', messages);
const notFound = (message = 'Record not found') => new HttpError(404, 'NotFoundException', [message]);

/* ------------------------------------------------------------------ collections */

type ValueType = 'text' | 'number' | 'numeric' | 'boolean' | 'uuid' | 'json' | 'actorSource';
interface Column {
  column: string;
  type: ValueType;
  /** Value stored when the field (or sub-field) is absent on create. */
  def: unknown;
}
interface SubField extends Column {
  key: string;
}
interface Field {
  name: string;
  nullable: boolean;
  /** Scalar field: its column. */
  column?: Column;
  /** Composite field: one column per sub-field. */
  subs?: SubField[];
}
interface Collection {
  table: string;
  plural: string;
  singular: string;
  pascal: string;
  pascalPlural: string;
  fields: Field[];
  /** Filterable top-level paths used by the benchmark. */
  filterable: Record<string, Column>;
  /** Duplicate criteria as lists of [path, column]. */
  duplicateCriteria: [string, string][][];
  /** The unique field upserts match on: its field, sub-field and column. */
  unique: { field: string; sub: string; column: string };
  selectList: string;
  insertColumns: string[];
  byName: Map<string, Field>;
}

const scalar = (name: string, column: string, type: ValueType, def: unknown, nullable = false): Field => ({
  name,
  nullable,
  column: { column, type, def },
});
const sub = (key: string, column: string, type: ValueType, def: unknown): SubField => ({ key, column, type, def });
const links = (name: string, nullable: boolean): Field => ({
  name,
  nullable,
  subs: [
    sub('primaryLinkUrl', `${name}PrimaryLinkUrl`, 'text', ''),
    sub('primaryLinkLabel', `${name}PrimaryLinkLabel`, 'text', ''),
    sub('secondaryLinks', `${name}SecondaryLinks`, 'json', []),
  ],
});
const createdBy: Field = {
  name: 'createdBy',
  nullable: false,
  subs: [
    sub('source', 'createdBySource', 'actorSource', 'MANUAL'),
    sub('workspaceMemberId', 'createdByWorkspaceMemberId', 'uuid', null),
    sub('name', 'createdByName', 'text', ''),
    sub('context', 'createdByContext', 'json', {}),
  ],
};
const ACTOR_SOURCES = [
  'EMAIL',
  'CALENDAR',
  'WORKFLOW',
  'API',
  'IMPORT',
  'MANUAL',
  'SYSTEM',
  'WEBHOOK',
  'AGENT',
  'APPLICATION',
];

function collection(def: Omit<Collection, 'selectList' | 'insertColumns' | 'byName'>): Collection {
  const columns = def.fields.flatMap((f) => (f.column ? [f.column.column] : f.subs!.map((s) => s.column)));
  return {
    ...def,
    selectList: ['id', 'createdAt', 'updatedAt', 'deletedAt', ...columns].map((c) => `"${c}"`).join(', '),
    insertColumns: ['id', ...columns],
    byName: new Map(def.fields.map((f) => [f.name, f])),
  };
}

const people = collection({
  table: 'person',
  plural: 'people',
  singular: 'person',
  pascal: 'Person',
  pascalPlural: 'People',
  fields: [
    {
      name: 'name',
      nullable: true,
      subs: [sub('firstName', 'nameFirstName', 'text', ''), sub('lastName', 'nameLastName', 'text', '')],
    },
    {
      name: 'emails',
      nullable: false,
      subs: [
        sub('primaryEmail', 'emailsPrimaryEmail', 'text', ''),
        sub('additionalEmails', 'emailsAdditionalEmails', 'json', null),
      ],
    },
    links('linkedinLink', true),
    links('xLink', true),
    scalar('jobTitle', 'jobTitle', 'text', ''),
    scalar('phone', 'phone', 'text', '', true),
    {
      name: 'phones',
      nullable: true,
      subs: [
        sub('primaryPhoneNumber', 'phonesPrimaryPhoneNumber', 'text', ''),
        sub('primaryPhoneCountryCode', 'phonesPrimaryPhoneCountryCode', 'text', ''),
        sub('primaryPhoneCallingCode', 'phonesPrimaryPhoneCallingCode', 'text', ''),
        sub('additionalPhones', 'phonesAdditionalPhones', 'json', null),
      ],
    },
    scalar('city', 'city', 'text', ''),
    scalar('avatarUrl', 'avatarUrl', 'text', ''),
    scalar('position', 'position', 'number', 0),
    createdBy,
    scalar('companyId', 'companyId', 'uuid', null, true),
  ],
  filterable: {
    city: { column: 'city', type: 'text', def: '' },
    jobTitle: { column: 'jobTitle', type: 'text', def: '' },
    position: { column: 'position', type: 'number', def: 0 },
  },
  duplicateCriteria: [
    [
      ['name.firstName', 'nameFirstName'],
      ['name.lastName', 'nameLastName'],
    ],
    [['linkedinLink.primaryLinkUrl', 'linkedinLinkPrimaryLinkUrl']],
    [['emails.primaryEmail', 'emailsPrimaryEmail']],
  ],
  unique: { field: 'emails', sub: 'primaryEmail', column: 'emailsPrimaryEmail' },
});

const companies = collection({
  table: 'company',
  plural: 'companies',
  singular: 'company',
  pascal: 'Company',
  pascalPlural: 'Companies',
  fields: [
    scalar('name', 'name', 'text', ''),
    links('domainName', false),
    scalar('employees', 'employees', 'number', null, true),
    links('linkedinLink', true),
    links('xLink', true),
    {
      name: 'annualRecurringRevenue',
      nullable: true,
      subs: [
        sub('amountMicros', 'annualRecurringRevenueAmountMicros', 'numeric', null),
        sub('currencyCode', 'annualRecurringRevenueCurrencyCode', 'text', ''),
      ],
    },
    {
      name: 'address',
      nullable: true,
      subs: [
        sub('addressStreet1', 'addressAddressStreet1', 'text', ''),
        sub('addressStreet2', 'addressAddressStreet2', 'text', ''),
        sub('addressCity', 'addressAddressCity', 'text', ''),
        sub('addressPostcode', 'addressAddressPostcode', 'text', ''),
        sub('addressState', 'addressAddressState', 'text', ''),
        sub('addressCountry', 'addressAddressCountry', 'text', ''),
        sub('addressLat', 'addressAddressLat', 'numeric', null),
        sub('addressLng', 'addressAddressLng', 'numeric', null),
      ],
    },
    scalar('idealCustomerProfile', 'idealCustomerProfile', 'boolean', false),
    scalar('position', 'position', 'number', 0),
    createdBy,
    scalar('accountOwnerId', 'accountOwnerId', 'uuid', null, true),
    scalar('addressOld', 'addressOld', 'text', '', true),
  ],
  filterable: {
    employees: { column: 'employees', type: 'number', def: null },
    name: { column: 'name', type: 'text', def: '' },
    position: { column: 'position', type: 'number', def: 0 },
    idealCustomerProfile: { column: 'idealCustomerProfile', type: 'text', def: false },
  },
  duplicateCriteria: [[['name', 'name']], [['domainName.primaryLinkUrl', 'domainNamePrimaryLinkUrl']]],
  unique: { field: 'domainName', sub: 'primaryLinkUrl', column: 'domainNamePrimaryLinkUrl' },
});

const COLLECTIONS: Record<string, Collection> = { people, companies };

/* ------------------------------------------------------------------ records */

const PG_UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/** '2026-11-21 10:04:05.123456+00' (UTC session) -> '2026-11-21T10:04:05.123Z'. */
function iso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value);
  const m = PG_UTC_TIMESTAMP.exec(text);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  return new Date(text).toISOString();
}

function decode(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return column.type === 'numeric' ? Number(value) : value;
}

/** A table row as the API shows the record (depth 0). */
function toRecord(c: Collection, row: Row): Row {
  const record: Row = { id: row.id };
  for (const field of c.fields) {
    if (field.column) {
      record[field.name] = decode(field.column, row[field.column.column]);
      continue;
    }
    const value: Row = {};
    let allNull = true;
    for (const s of field.subs!) {
      const v = decode(s, row[s.column]);
      if (v !== null) allNull = false;
      value[s.key] = v;
    }
    record[field.name] = field.nullable && allNull ? null : value;
  }
  record.createdAt = iso(row.createdAt);
  record.updatedAt = iso(row.updatedAt);
  record.deletedAt = iso(row.deletedAt);
  return record;
}

/** Rows of the one-to-many tables hold scalars only (plus two composites on opportunities). */
const TIMESTAMP_COLUMNS = new Set(['createdAt', 'updatedAt', 'deletedAt', 'happensAt', 'closeDate']);
function toChildRecord(row: Row): Row {
  const record: Row = {};
  for (const [key, value] of Object.entries(row)) record[key] = TIMESTAMP_COLUMNS.has(key) ? iso(value) : value;
  return record;
}
function toOpportunityRecord(row: Row): Row {
  const {
    amountAmountMicros,
    amountCurrencyCode,
    createdBySource,
    createdByWorkspaceMemberId,
    createdByName,
    createdByContext,
    ...rest
  } = row;
  const record = toChildRecord(rest);
  record.amount =
    amountAmountMicros === null && (amountCurrencyCode === null || amountCurrencyCode === undefined)
      ? null
      : {
          amountMicros: amountAmountMicros === null ? null : Number(amountAmountMicros),
          currencyCode: amountCurrencyCode,
        };
  record.createdBy = {
    source: createdBySource,
    workspaceMemberId: createdByWorkspaceMemberId,
    name: createdByName,
    context: createdByContext,
  };
  return record;
}

/* ------------------------------------------------------------------ request bodies */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

function checkValue(type: ValueType, value: unknown, path: string, problems: string[]): void {
  if (value === null) return; // nullability is checked by the caller
  const ok =
    type === 'text'
      ? typeof value === 'string' && !value.includes('\u0000')
      : type === 'number'
        ? typeof value === 'number' && Number.isFinite(value)
        : type === 'numeric'
          ? (typeof value === 'number' && Number.isFinite(value)) ||
            (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value))
          : type === 'boolean'
            ? typeof value === 'boolean'
            : type === 'uuid'
              ? typeof value === 'string' && UUID.test(value)
              : type === 'actorSource'
                ? typeof value === 'string' && ACTOR_SOURCES.includes(value)
                : true;
  if (!ok) problems.push(`${path} must be a valid ${type}`);
}

/** Type checks of a create (or, `partial`, update) body; returns one message per problem. */
function validate(c: Collection, body: unknown, partial: boolean, prefix = ''): string[] {
  if (!isObject(body)) return [`${prefix}body must be an object`];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (key === 'id' && !partial) {
      if (typeof value !== 'string' || !UUID.test(value)) problems.push(`${prefix}id must be a UUID`);
      continue;
    }
    const field = c.byName.get(key);
    if (!field) {
      problems.push(`${prefix}property ${key} should not exist`);
      continue;
    }
    if (value === null) {
      if (!field.nullable && !(field.column && field.column.def === null))
        problems.push(`${prefix}${key} must not be null`);
      continue;
    }
    if (field.column) {
      checkValue(field.column.type, value, `${prefix}${key}`, problems);
      continue;
    }
    if (!isObject(value)) {
      problems.push(`${prefix}${key} must be an object`);
      continue;
    }
    for (const [subKey, subValue] of Object.entries(value)) {
      const s = field.subs!.find((x) => x.key === subKey);
      if (!s) problems.push(`${prefix}${key}.${subKey} should not exist`);
      else checkValue(s.type, subValue, `${prefix}${key}.${subKey}`, problems);
    }
  }
  return problems;
}

function encode(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  return column.type === 'json' ? JSON.stringify(value) : value;
}

interface Actor {
  apiKeyId: string;
  apiKeyName: string;
  workspaceMemberId: string | null;
}

/** Values of every insert column, absent fields and sub-fields at their defaults; createdBy from the key. */
function insertValues(c: Collection, input: Row, actor: Actor): unknown[] {
  const values: unknown[] = [input.id ?? randomUUID()];
  for (const field of c.fields) {
    let given = input[field.name];
    if (field.name === 'createdBy' && !(isObject(given) && given.source !== undefined)) {
      given = { source: 'API', name: actor.apiKeyName, workspaceMemberId: actor.workspaceMemberId, context: {} };
    }
    if (field.column) {
      values.push(encode(field.column, given === undefined ? field.column.def : given));
      continue;
    }
    for (const s of field.subs!) {
      const value =
        given === undefined ? s.def : given === null ? null : given[s.key] === undefined ? s.def : given[s.key];
      values.push(encode(s, value));
    }
  }
  return values;
}

/** SET assignments of a partial update: the fields present, and inside composites the sub-fields present. */
function updateAssignments(c: Collection, input: Row): { columns: string[]; values: unknown[] } {
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const field of c.fields) {
    const given = input[field.name];
    if (given === undefined) continue;
    if (field.column) {
      columns.push(field.column.column);
      values.push(encode(field.column, given));
      continue;
    }
    for (const s of field.subs!) {
      if (given === null || given[s.key] !== undefined) {
        columns.push(s.column);
        values.push(encode(s, given === null ? null : given[s.key]));
      }
    }
  }
  return { columns, values };
}

/* ------------------------------------------------------------------ events (same rows as src/core/events) */

interface RecordEvent {
  action: 'created' | 'updated' | 'restored';
  recordId: string;
  before?: Row;
  after: Row;
  diff?: Row;
  updatedFields?: string[];
}

/** The event of a change; an update's diff (every field but updatedAt that changed) and updatedFields. */
function updatedEvent(recordId: string, before: Row, after: Row): RecordEvent {
  const diff: Row = {};
  for (const [key, value] of Object.entries(after)) {
    if (key !== 'updatedAt' && !isDeepStrictEqual(value, before[key]))
      diff[key] = { before: before[key], after: value };
  }
  return { action: 'updated', recordId, before, after, diff, updatedFields: Object.keys(diff) };
}

const TIMELINE_COLUMNS = [
  'workspaceMemberId',
  'personId',
  'companyId',
  'opportunityId',
  'noteId',
  'taskId',
  'workflowId',
  'workflowVersionId',
  'workflowRunId',
];
const TIMELINE_COLUMN_OF: Record<string, string> = { people: 'personId', companies: 'companyId' };

function placeholders(rows: unknown[][], params: unknown[]): string {
  return rows.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`).join(', ');
}

/*
 * As the service's event bus (src/core/events, src/core/records/eventful-statements.ts), the
 * events of a write are a relation `ev` (name, action, objectName, recordId, before, after, diff,
 * updatedFields), computed by PostgreSQL from the written rows (creates and updates) or bound as
 * one JSON record set (upserts), and the audit, timeline and outbox rows are data-modifying CTEs
 * over it, in the write's own statement.
 */

const isoSql = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const valueSql = (col: Column, ref: string) => (col.type === 'numeric' ? `${ref}::float8` : ref);

/** SQL of a record's JSON (depth 0, as the API answers it) from the row `alias`: composites as objects, a nullable one all null as null. */
function recordJson(c: Collection, alias: string): string {
  const ref = (column: string) => `${alias}."${column}"`;
  const pairs = [`'id', ${ref('id')}`];
  for (const field of c.fields) {
    if (field.column) {
      pairs.push(`'${field.name}', ${valueSql(field.column, ref(field.column.column))}`);
      continue;
    }
    const object = `jsonb_build_object(${field.subs!.map((s) => `'${s.key}', ${valueSql(s, ref(s.column))}`).join(', ')})`;
    const allNull = field.subs!.map((s) => `${ref(s.column)} IS NULL`).join(' AND ');
    pairs.push(`'${field.name}', ${field.nullable ? `CASE WHEN ${allNull} THEN NULL ELSE ${object} END` : object}`);
  }
  for (const column of ['createdAt', 'updatedAt', 'deletedAt']) pairs.push(`'${column}', ${isoSql(ref(column))}`);
  return `jsonb_build_object(${pairs.join(', ')})`; // 17 pairs: under the 100 arguments of jsonb_build_object
}

const EVENT_COLUMNS =
  '"name" text, "action" text, "objectName" text, "recordId" uuid, "before" jsonb, "after" jsonb, "diff" jsonb, "updatedFields" jsonb';
const PROPERTIES =
  `CASE e."action" WHEN 'updated' THEN jsonb_build_object('before', e."before", 'after', e."after", 'diff', e."diff") ` +
  `WHEN 'created' THEN jsonb_build_object('after', e."after") WHEN 'restored' THEN jsonb_build_object('after', e."after") ` +
  `ELSE jsonb_build_object('before', e."before") END`;
const PAYLOAD =
  `jsonb_build_object('eventName', e."name", 'objectMetadata', jsonb_build_object('nameSingular', e."objectName"), 'workspaceId', NULL, ` +
  `'eventDate', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'record', coalesce(e."after", e."before"))`;

/** The change feed, audit, timeline and outbox CTEs over `ev` (their values appended to `params`). */
function eventCtes(c: Collection, params: unknown[], actor: Actor): string {
  params.push(actor.apiKeyId || null);
  const apiKeyId = `$${params.length}::uuid`;
  params.push(JSON.stringify({ apiKeyId: actor.apiKeyId || null }));
  const context = `$${params.length}::jsonb`;
  params.push(actor.workspaceMemberId);
  const member = `$${params.length}::uuid`;
  const own = TIMELINE_COLUMN_OF[c.plural];
  return (
    `changes AS (INSERT INTO "_changes" ("eventName", "collection", "recordId", "apiKeyId", "record", "updatedFields") ` +
    `SELECT e."name", CASE e."objectName" WHEN '${c.singular}' THEN '${c.plural}' ELSE e."objectName" END, e."recordId", ${apiKeyId}, ` +
    `coalesce(e."after", e."before"), e."updatedFields" FROM ev e), ` +
    `audit AS (INSERT INTO "auditLog" ("name", "objectName", "recordId", "properties", "context", "workspaceMemberId") ` +
    `SELECT e."name", e."objectName", e."recordId", ${PROPERTIES}, ${context}, ${member} FROM ev e), ` +
    `timeline AS (INSERT INTO "timelineActivity" ("name", "properties", "linkedRecordId", ${TIMELINE_COLUMNS.map((col) => `"${col}"`).join(', ')}) ` +
    `SELECT e."name", ${PROPERTIES}, NULL::uuid, ${TIMELINE_COLUMNS.map((col) => (col === own ? 'e."recordId"' : 'NULL::uuid')).join(', ')} ` +
    `FROM ev e WHERE e."objectName" = '${c.singular}' AND e."action" <> 'destroyed'), ` +
    `outbox AS (INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload") SELECT w."id", e."name", ` +
    `CASE WHEN e."updatedFields" IS NULL THEN ${PAYLOAD} ELSE ${PAYLOAD} || jsonb_build_object('updatedFields', e."updatedFields") END ` +
    `FROM ev e JOIN "webhook" w ON w."deletedAt" IS NULL AND w."targetUrl" <> '' AND w."operations" && ARRAY[e."name", '*.' || e."action", e."objectName" || '.*', '*.*'] RETURNING 1)`
  );
}

const OUTBOX_COUNT = '(SELECT count(*)::int FROM outbox) AS "__c0"';

/** A named (prepared once per connection) statement, as the service names its single-record writes. */
const prepared = (text: string, values: unknown[]) => ({
  name: `w_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`,
  text,
  values,
});

/** One statement: `write` (CTEs ending in `u`, the written rows), `ev` (`events`), the event CTEs; answers the rows of `u` by id. */
function eventfulSql(c: Collection, write: string[], events: string, params: unknown[], actor: Actor): string {
  return `WITH ${[...write, `ev AS (${events})`, eventCtes(c, params, actor)].join(', ')} SELECT ${c.selectList}, ${OUTBOX_COUNT} FROM u ORDER BY "id"`;
}

/** `ev` of records created: the rows of `u`. */
const createdEvents = (c: Collection) =>
  `SELECT '${c.singular}.created' AS "name", 'created' AS "action", '${c.singular}' AS "objectName", r."id" AS "recordId", NULL::jsonb AS "before", ` +
  `${recordJson(c, 'r')} AS "after", NULL::jsonb AS "diff", NULL::jsonb AS "updatedFields" FROM u r`;

/**
 * The CTEs and `ev` of the same partial update (`columns` = `$<first>..`) of the records `targets`
 * selects (`SELECT "id", <record JSON> AS "json"`): `u` returns each record's JSON before the
 * change beside its columns after; the diff compares the fields of the assigned columns; an
 * event for every record whose fields changed. `atMost`: nothing updated when `targets` has more.
 */
function updateSql(
  c: Collection,
  targets: string,
  columns: string[],
  first: number,
  atMost?: number,
): { write: string[]; events: string } {
  const sets = columns
    .map((col, i) => `"${col}" = $${first + i}`)
    .concat('"updatedAt" = now()')
    .join(', ');
  const guard = atMost === undefined ? '' : ` AND (SELECT count(*) FROM b) <= ${atMost}`;
  const own = c.selectList.replace(/(^|, )"/g, '$1t."');
  const fields = c.fields
    .filter((f) => (f.column ? [f.column.column] : f.subs!.map((s) => s.column)).some((col) => columns.includes(col)))
    .map((f) => f.name);
  const names = `ARRAY[${fields.map((n) => `'${n}'`).join(', ')}]::text[]`;
  const diff =
    `(SELECT coalesce(jsonb_object_agg(k.key, jsonb_build_object('before', c."before" -> k.key, 'after', c."after" -> k.key)), '{}'::jsonb) ` +
    `FROM unnest(${names}) AS k(key) WHERE c."after" -> k.key IS DISTINCT FROM c."before" -> k.key)`;
  return {
    write: [
      `b AS MATERIALIZED (${targets})`,
      `u AS (UPDATE "${c.table}" t SET ${sets} FROM b WHERE t."id" = b."id"${guard} RETURNING ${own}, b."json" AS "__before")`,
      `c AS MATERIALIZED (SELECT u."id", u."__before" AS "before", ${recordJson(c, 'u')} AS "after" FROM u)`,
      `d AS MATERIALIZED (SELECT c.*, ${diff} AS "diff" FROM c)`,
    ],
    events:
      `SELECT '${c.singular}.updated' AS "name", 'updated' AS "action", '${c.singular}' AS "objectName", d."id" AS "recordId", d."before", d."after", d."diff", ` +
      `(SELECT jsonb_agg(f.n ORDER BY f.i) FROM unnest(${names}) WITH ORDINALITY AS f(n, i) WHERE d."diff" ? f.n) AS "updatedFields" ` +
      `FROM d WHERE d."diff" <> '{}'::jsonb`,
  };
}

/** Events computed in Node (upserts), bound as one JSON record set: one statement writes their rows. */
async function recordEvents(client: PoolClient, c: Collection, events: RecordEvent[], actor: Actor): Promise<void> {
  if (events.length === 0) return;
  const rows = events.map((e) => ({
    name: `${c.singular}.${e.action}`,
    action: e.action,
    objectName: c.singular,
    recordId: e.recordId,
    before: e.before ?? null,
    after: e.after ?? null,
    diff: e.diff ?? null,
    updatedFields: e.updatedFields ?? null,
  }));
  const params: unknown[] = [JSON.stringify(rows)];
  const ctes = [
    `ev AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(${EVENT_COLUMNS}))`,
    eventCtes(c, params, actor),
  ];
  await client.query(`WITH ${ctes.join(', ')} SELECT 1, ${OUTBOX_COUNT} FROM (SELECT 1) one`, params);
}

/* ------------------------------------------------------------------ relations (depth 1, people) */

/** The one-to-many relations of a person, with the exact statements the service's RelationLoader sends. */
const lateral = (columns: string, table: string, join: string, order: string) =>
  `SELECT c.* FROM unnest($1::uuid[]) AS p(pid) CROSS JOIN LATERAL (SELECT ${columns} FROM "${table}" ` +
  `WHERE "${join}" = p.pid AND "deletedAt" IS NULL ORDER BY ${order} LIMIT ${RELATION_LIMIT}) c`;
const BY_ID = '"id" ASC';
const BY_POSITION = '"position" ASC NULLS LAST, "id" ASC';
const PERSON_CHILDREN: { name: string; join: string; sql: string; map: (row: Row) => Row }[] = [
  {
    name: 'attachments',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "name", "fullPath", "type", "size", "mimeType", "checksum", "authorId", "taskId", "noteId", "personId", "companyId", "opportunityId"',
      'attachment',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
  {
    name: 'messageParticipants',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "role", "handle", "displayName", "messageId", "personId", "workspaceMemberId"',
      'messageParticipant',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
  {
    name: 'noteTargets',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "noteId", "personId", "companyId", "opportunityId"',
      'noteTarget',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
  {
    name: 'calendarEventParticipants',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "handle", "displayName", "isOrganizer", "responseStatus", "calendarEventId", "personId", "workspaceMemberId"',
      'calendarEventParticipant',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
  {
    name: 'pointOfContactForOpportunities',
    join: 'pointOfContactId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "name", "amountAmountMicros", "amountCurrencyCode", "closeDate", "stage", "position", "createdBySource", "createdByWorkspaceMemberId", "createdByName", "createdByContext", "pointOfContactId", "companyId", "probability"',
      'opportunity',
      'pointOfContactId',
      BY_POSITION,
    ),
    map: toOpportunityRecord,
  },
  {
    name: 'favorites',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "position", "forWorkspaceMemberId", "personId", "companyId", "favoriteFolderId", "opportunityId", "workflowId", "workflowVersionId", "workflowRunId", "taskId", "noteId", "viewId"',
      'favorite',
      'personId',
      BY_POSITION,
    ),
    map: toChildRecord,
  },
  {
    name: 'timelineActivities',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "happensAt", "name", "properties", "linkedRecordCachedName", "linkedRecordId", "linkedObjectMetadataId", "workspaceMemberId", "personId", "companyId", "opportunityId", "noteId", "taskId", "workflowId", "workflowVersionId", "workflowRunId"',
      'timelineActivity',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
  {
    name: 'taskTargets',
    join: 'personId',
    sql: lateral(
      '"id", "createdAt", "updatedAt", "deletedAt", "taskId", "personId", "companyId", "opportunityId"',
      'taskTarget',
      'personId',
      BY_ID,
    ),
    map: toChildRecord,
  },
];

/** depth=1 on people: the company (one query for the page) and each one-to-many list (one query each), in parallel. */
async function attachPersonRelations(records: Row[]): Promise<void> {
  if (records.length === 0) return;
  const attachCompany = async () => {
    const ids = [...new Set(records.map((r) => r.companyId).filter((id): id is string => typeof id === 'string'))];
    const byId = new Map<string, Row>();
    if (ids.length > 0) {
      const rows = await query(
        `SELECT ${companies.selectList} FROM "company" WHERE "id" = ANY($1::uuid[]) AND "deletedAt" IS NULL`,
        [ids],
      );
      for (const row of rows) byId.set(row.id, toRecord(companies, row));
    }
    for (const r of records) r.company = typeof r.companyId === 'string' ? (byId.get(r.companyId) ?? null) : null;
  };
  const ids = records.map((r) => r.id);
  await Promise.all([
    attachCompany(),
    ...PERSON_CHILDREN.map(async (rel) => {
      const rows = await query(rel.sql, [ids]);
      const byParent = new Map<string, Row[]>();
      for (const row of rows) {
        const child = rel.map(row);
        const list = byParent.get(row[rel.join]);
        if (list) list.push(child);
        else byParent.set(row[rel.join], [child]);
      }
      for (const r of records) r[rel.name] = byParent.get(r.id) ?? [];
    }),
  ]);
}

function parseDepth(raw: string | null, c: Collection): 0 | 1 {
  const depth = raw === null ? 1 : raw === '0' ? 0 : raw === '1' ? 1 : -1;
  if (depth < 0) throw badRequest(`'depth=${raw}' parameter invalid. Allowed values are 0, 1 (in the baseline)`);
  if (depth === 1 && c !== people) throw badRequest(`the baseline supports depth=1 on people only`);
  return depth as 0 | 1;
}

async function shape(records: Row[], depth: 0 | 1): Promise<Row[]> {
  if (depth === 1) await attachPersonRelations(records);
  return records;
}

/* ------------------------------------------------------------------ handlers */

async function findOne(c: Collection, id: string, params: URLSearchParams) {
  if (!UUID.test(id)) throw badRequest(`'${id}' is not a valid UUID`);
  const depth = parseDepth(params.get('depth'), c);
  // a named (prepared once per connection) statement, as the service's
  const { rows } = await pool.query({
    name: `${c.plural}.findOne`,
    text: `SELECT ${c.selectList} FROM "${c.table}" WHERE "id" = $1 AND "deletedAt" IS NULL`,
    values: [id],
  });
  if (rows.length === 0) throw notFound();
  const [record] = await shape([toRecord(c, rows[0])], depth);
  return { status: 200, body: { data: { [c.singular]: record } } };
}

/** Columns lists may be sorted on, and whether they may hold NULL (then a NULLS clause is written). */
const SORTABLE: Record<string, Record<string, { column: string; nullable: boolean }>> = {
  people: {
    createdAt: { column: 'createdAt', nullable: false },
    updatedAt: { column: 'updatedAt', nullable: false },
    position: { column: 'position', nullable: false },
    city: { column: 'city', nullable: false },
    jobTitle: { column: 'jobTitle', nullable: false },
  },
  companies: {
    createdAt: { column: 'createdAt', nullable: false },
    updatedAt: { column: 'updatedAt', nullable: false },
    position: { column: 'position', nullable: false },
    name: { column: 'name', nullable: false },
    employees: { column: 'employees', nullable: true },
  },
};
const SORT_KEY = /^([A-Za-z]+)(?:\[(AscNullsFirst|AscNullsLast|DescNullsFirst|DescNullsLast)\])?$/;

/**
 * ORDER BY of `order_by` (`f1[DescNullsLast],f2`, default direction AscNullsFirst) as the service
 * writes it: a NULLS clause only on nullable columns (on a NOT NULL one it would keep the planner
 * off the (column, id) index), and `id` last, in the direction of the last key. Without
 * order_by: by id.
 */
function orderBy(c: Collection, raw: string | null): string {
  if (raw === null) return '"id" ASC';
  const keys = raw.split(',').map((part) => {
    const m = SORT_KEY.exec(part.trim());
    const column = m && (m[1] === 'id' ? { column: 'id', nullable: false } : SORTABLE[c.plural][m[1]]);
    if (!m || !column) throw badRequest(`the baseline sorts on ${Object.keys(SORTABLE[c.plural]).join(', ')} only`);
    const direction = m[2] ?? 'AscNullsFirst';
    return { ...column, descending: direction.startsWith('Desc'), nullsFirst: direction.endsWith('NullsFirst') };
  });
  if (!keys.some((k) => k.column === 'id'))
    keys.push({ column: 'id', nullable: false, descending: keys[keys.length - 1].descending, nullsFirst: false });
  return keys
    .map(
      (k) =>
        `"${k.column}" ${k.descending ? 'DESC' : 'ASC'}${k.nullable ? ` NULLS ${k.nullsFirst ? 'FIRST' : 'LAST'}` : ''}`,
    )
    .join(', ');
}

const FILTER = /^([A-Za-z]+)\[(eq|gt|gte|lt|lte)\]:(.*)$/s;
const RELATION_FILTER = /^([A-Za-z]+)\.([A-Za-z]+)\[(eq|gt|gte|lt|lte)\]:(.*)$/s;
const COMPARISON: Record<string, string> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' };

/** The many-to-one relations list filters may go through (API.md section 12): people -> company. */
const MANY_TO_ONE: Record<string, Record<string, { target: () => Collection; joinColumn: string }>> = {
  people: { company: { target: () => companies, joinColumn: 'companyId' } },
};

function filterValue(column: Column, raw: string): unknown {
  const value = raw.replace(/^"(.*)"$/s, '$1');
  if (column.type !== 'number') return value;
  const n = Number(value);
  if (!Number.isFinite(n)) throw badRequest(`'${raw}' is not a number`);
  return n;
}

/**
 * A list filter: one predicate on a field, or through a many-to-one relation
 * (`company.employees[gt]:100`) as the service writes it: EXISTS over the related live record.
 */
function listFilter(c: Collection, filter: string, values: unknown[]): string {
  const related = RELATION_FILTER.exec(filter);
  if (related) {
    const relation = MANY_TO_ONE[c.plural]?.[related[1]];
    const column = relation?.target().filterable[related[2]];
    if (!relation || !column)
      throw badRequest(
        `the baseline filters through ${Object.keys(MANY_TO_ONE[c.plural] ?? {}).join(', ') || 'no relation'} only`,
      );
    values.push(filterValue(column, related[4]));
    return (
      `EXISTS (SELECT 1 FROM "${relation.target().table}" AS r1 WHERE r1."id" = "${c.table}"."${relation.joinColumn}" ` +
      `AND r1."deletedAt" IS NULL AND r1."${column.column}" ${COMPARISON[related[3]]} $${values.length})`
    );
  }
  const m = FILTER.exec(filter);
  const column = m && c.filterable[m[1]];
  if (!m || !column) throw badRequest(`the baseline filters on ${Object.keys(c.filterable).join(', ')} only`);
  values.push(filterValue(column, m[3]));
  return `"${column.column}" ${COMPARISON[m[2]]} $${values.length}`;
}

async function findMany(c: Collection, params: URLSearchParams, countNone: boolean) {
  const depth = parseDepth(params.get('depth'), c);
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? PAGE_SIZE_DEFAULT : Math.min(PAGE_SIZE_MAX, Number(rawLimit));
  if (!Number.isInteger(limit) || limit < 0) throw badRequest(`limit '${rawLimit}' is invalid. Should be an integer`);
  const values: unknown[] = [];
  const conditions = ['"deletedAt" IS NULL'];
  const filter = params.get('filter');
  if (filter !== null) conditions.push(listFilter(c, filter, values));
  const countWhere = `WHERE ${conditions.join(' AND ')}`;
  const countValues = [...values];
  const sort = orderBy(c, params.get('order_by'));
  const after = params.get('starting_after');
  if (after !== null) {
    if (params.has('order_by')) throw badRequest('the baseline pages by id only (no starting_after with order_by)');
    const id = decodeBaselineCursor(CURSOR_KEY, after);
    if (!id) throw badRequest('Invalid cursor');
    values.push(id);
    conditions.push(`"id" > $${values.length}`);
  }
  const [rows, counted] = await Promise.all([
    query(
      `SELECT ${c.selectList} FROM "${c.table}" WHERE ${conditions.join(' AND ')} ORDER BY ${sort} LIMIT ${limit + 1}`,
      values,
    ),
    countNone
      ? undefined
      : filter === null
        ? // every live record: the sum of the live-count deltas, as the service reads it
          query(`SELECT coalesce(sum("delta"), 0)::float8 AS "count" FROM "_live_counts" WHERE "table" = $1`, [c.table])
        : query(`SELECT count(*) AS count FROM "${c.table}" ${countWhere}`, countValues),
  ]);
  const page = rows.slice(0, limit);
  const records = await shape(
    page.map((row) => toRecord(c, row)),
    depth,
  );
  const pageInfo = {
    hasNextPage: rows.length > limit,
    hasPreviousPage: after !== null,
    startCursor: page.length ? encodeBaselineCursor(CURSOR_KEY, page[0].id) : null,
    endCursor: page.length ? encodeBaselineCursor(CURSOR_KEY, page[page.length - 1].id) : null,
  };
  const body: Row = { data: { [c.plural]: records }, pageInfo };
  if (counted) body.totalCount = counted[0].count;
  return { status: 200, body };
}

async function createMany(c: Collection, inputs: Row[], params: URLSearchParams, actor: Actor): Promise<Row[]> {
  const depth = parseDepth(params.get('depth'), c);
  const tuples = inputs.map((input) => insertValues(c, input, actor));
  // one statement (atomic without BEGIN/COMMIT): the insert, its events, their rows
  const values: unknown[] = [];
  const insert = `INSERT INTO "${c.table}" (${c.insertColumns.map((col) => `"${col}"`).join(', ')}) VALUES ${placeholders(tuples, values)} RETURNING ${c.selectList}`;
  const { rows } = await pool.query(
    prepared(eventfulSql(c, [`u AS (${insert})`], createdEvents(c), values, actor), values),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return shape(
    tuples.map((t) => toRecord(c, byId.get(t[0])!)),
    depth,
  );
}

async function updateOne(c: Collection, id: string, input: Row, params: URLSearchParams, actor: Actor) {
  if (!UUID.test(id)) throw badRequest(`'${id}' is not a valid UUID`);
  const depth = parseDepth(params.get('depth'), c);
  const { columns, values } = updateAssignments(c, input);
  let row: Row | undefined;
  if (columns.length === 0) {
    [row] = await query(`SELECT ${c.selectList} FROM "${c.table}" WHERE "id" = $1 AND "deletedAt" IS NULL`, [id]);
  } else {
    // one statement: the live record locked and copied, updated, its event rows written
    const bound: unknown[] = [[id], ...values];
    const targets = `SELECT t."id", ${recordJson(c, 't')} AS "json" FROM "${c.table}" t WHERE t."id" = ANY($1::uuid[]) AND t."deletedAt" IS NULL FOR UPDATE`;
    const { write, events } = updateSql(c, targets, columns, 2);
    [row] = (await pool.query(prepared(eventfulSql(c, write, events, bound, actor), bound))).rows;
  }
  if (!row) throw notFound();
  const [shaped] = await shape([toRecord(c, row)], depth);
  return { status: 200, body: { data: { [`update${c.pascal}`]: shaped } } };
}

/* ------------------------------------------------------------------ bulk writes (API.md section 11) */

/** A top-level comma list of `field[op]:value` (commas inside double quotes kept): the filters of the benchmark's bulk writes. */
function bulkFilter(c: Collection, raw: string | null, values: unknown[]): string {
  if (raw === null || raw.trim() === '') throw badRequest('filter is required');
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of raw) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const predicates = parts.map((part) => {
    const m = FILTER.exec(part.trim());
    const column = m && c.filterable[m[1]];
    if (!m || !column) throw badRequest(`the baseline filters on ${Object.keys(c.filterable).join(', ')} only`);
    let value: unknown = m[3].replace(/^"(.*)"$/s, '$1');
    if (column.type === 'number') {
      value = Number(value);
      if (!Number.isFinite(value)) throw badRequest(`'${m[3]}' is not a number`);
    }
    values.push(value);
    return `"${column.column}" ${COMPARISON[m[2]]} $${values.length}`;
  });
  // as the service's compiler: a list of several predicates is one parenthesized AND
  return predicates.length === 1 ? predicates[0] : `(${predicates.join(' AND ')})`;
}

/**
 * PATCH /rest/<collection>?filter=...: as the service's RecordBulkWrites.updateMany, in one
 * transaction (for its work_mem): one statement finds the live matches, locks them by id (one
 * more than BULK_MAX at most), updates them unless they are too many, and writes the events of
 * the records that changed; an empty answer is told from too many by one count (then 400).
 */
async function updateMany(c: Collection, input: Row, params: URLSearchParams, actor: Actor) {
  const depth = parseDepth(params.get('depth'), c);
  const values: unknown[] = [];
  const where = `"deletedAt" IS NULL AND ${bulkFilter(c, params.get('filter'), values)}`;
  const filterValues = values.slice();
  const { columns, values: assigned } = updateAssignments(c, input);
  if (columns.length === 0) throw badRequest('the baseline updates at least one field');
  const records = await transaction(async (client) => {
    // about 8 kB per record (its copies before and after), up to BULK_MAX, as the service
    if (BULK_MAX >= 500)
      await client.query(`SET LOCAL work_mem = '${Math.min(256, Math.ceil(4 + (BULK_MAX * 8) / 1024))}MB'`);
    const targets = `SELECT "id", ${recordJson(c, `"${c.table}"`)} AS "json" FROM "${c.table}" WHERE ${where} ORDER BY "id" LIMIT ${BULK_MAX + 1} FOR UPDATE`;
    const { write, events } = updateSql(c, targets, columns, values.length + 1, BULK_MAX);
    values.push(...assigned);
    const { rows } = await client.query(eventfulSql(c, write, events, values, actor), values);
    if (rows.length === 0) {
      const [{ count }] = (
        await client.query(`SELECT count(*) AS count FROM "${c.table}" WHERE ${where}`, filterValues)
      ).rows;
      if (Number(count) > BULK_MAX)
        throw badRequest(`The filter matches ${count} records; at most ${BULK_MAX} per request`);
    }
    return rows.map((row) => toRecord(c, row));
  });
  return { status: 200, body: { data: { [`update${c.pascalPlural}`]: await shape(records, depth) } } };
}

/** A transaction-scoped advisory lock key (64 bits) of one key value of one table, as the service's. */
function lockKey(table: string, key: string): string {
  return createHash('sha256').update(`${table}\u0000${key}`).digest().readBigInt64BE(0).toString();
}

const SQL_TYPE: Record<ValueType, (c: Collection, column: string) => string> = {
  text: () => 'text',
  number: () => 'double precision',
  numeric: () => 'numeric',
  boolean: () => 'boolean',
  uuid: () => 'uuid',
  json: () => 'jsonb',
  actorSource: (c, column) => `"${c.table}_${column.toLowerCase()}_enum"`,
};
const columnType = (c: Collection, column: string): string => {
  for (const field of c.fields) {
    const found = field.column?.column === column ? field.column : field.subs?.find((s) => s.column === column);
    if (found) return SQL_TYPE[found.type](c, column);
  }
  throw new Error(`${c.plural} has no column ${column}`);
};

/**
 * POST /rest/batch/<collection>?upsert=true: as the service's RecordUpserts, in one transaction:
 * advisory locks on every id and unique value (in one order), the candidates locked in one
 * select, one INSERT of the new records, one UPDATE ... FROM jsonb_to_recordset of the matched
 * ones (each with the columns it sent), one statement of events (created, then updated).
 */
async function upsertMany(c: Collection, items: Row[], params: URLSearchParams, actor: Actor) {
  const depth = parseDepth(params.get('depth'), c);
  const { field, sub, column: uniqueColumn } = c.unique;
  const uniqueOf = (item: Row): string | undefined => {
    const given = isObject(item[field]) ? item[field][sub] : undefined;
    return typeof given === 'string' && given !== '' ? given : undefined;
  };
  const ids = items.map((item) => item.id).filter((id): id is string => typeof id === 'string');
  const keyValues = [...new Set(items.map(uniqueOf).filter((v): v is string => v !== undefined))];
  const locks = [...new Set([...ids.map((id) => `id:${id}`), ...keyValues.map((v) => `${uniqueColumn}:${v}`)])];
  const records = await transaction(async (client) => {
    await client.query(
      'SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT unnest($1::int8[]) AS k ORDER BY 1) AS keys',
      [locks.map((key) => lockKey(c.table, key)).sort()],
    );
    const candidateValues: unknown[] = [ids];
    const conditions = ['"id" = ANY($1::uuid[])'];
    if (keyValues.length > 0) {
      candidateValues.push(keyValues);
      conditions.push(`"${uniqueColumn}" = ANY($2::text[])`);
    }
    const candidates = (
      await client.query(
        `SELECT ${c.selectList} FROM "${c.table}" WHERE ${conditions.join(' OR ')} FOR UPDATE`,
        candidateValues,
      )
    ).rows;
    // the plan: each item to at most one record, by id and by the unique value (a live record first, else the last deleted)
    const byId = new Map(candidates.map((row) => [row.id as string, row]));
    const byKey = new Map<string, Row>();
    const rank = (row: Row) => (row.deletedAt === null ? Infinity : Date.parse(String(row.deletedAt)));
    for (const row of candidates) {
      const value = row[uniqueColumn];
      if (typeof value !== 'string' || value === '') continue;
      const current = byKey.get(value);
      if (!current || rank(row) > rank(current)) byKey.set(value, row);
    }
    const problems: string[] = [];
    const claimed = new Map<string, number>();
    const targets = items.map((item, i) => {
      const byIdMatch = typeof item.id === 'string' && byId.has(item.id) ? (item.id as string) : undefined;
      const value = uniqueOf(item);
      const byKeyMatch = value === undefined ? undefined : (byKey.get(value)?.id as string | undefined);
      if (byIdMatch && byKeyMatch && byIdMatch !== byKeyMatch) {
        problems.push(`UPSERT_MULTIPLE_MATCHING_RECORDS_CONFLICT: [${i}] id / ${field}.${sub} match different records`);
        return null;
      }
      const target = byIdMatch ?? byKeyMatch ?? null;
      const identities = target
        ? [`id:${target}`]
        : [
            ...(typeof item.id === 'string' ? [`id:${item.id}`] : []),
            ...(value === undefined ? [] : [`${field}.${sub}:${value}`]),
          ];
      for (const identity of identities) {
        const earlier = claimed.get(identity);
        if (earlier !== undefined)
          problems.push(`[${earlier}] and [${i}] resolve to the same record (${identity.replace(/^id:/, 'id ')})`);
        else claimed.set(identity, i);
      }
      return target;
    });
    if (problems.length) throw badRequest(...new Set(problems));
    const created = items.flatMap((item, index) => (targets[index] === null ? [{ index, item }] : []));
    const createProblems = created.flatMap(({ index, item }) => validate(c, item, false, `[${index}] `));
    if (createProblems.length) throw badRequest(...createProblems);

    const result = new Map<number, Row>();
    const events: RecordEvent[] = [];
    if (created.length > 0) {
      const tuples = created.map(({ item }) => insertValues(c, item, actor));
      const values: unknown[] = [];
      const { rows } = await client.query(
        `INSERT INTO "${c.table}" (${c.insertColumns.map((col) => `"${col}"`).join(', ')}) VALUES ${placeholders(tuples, values)} RETURNING ${c.selectList}`,
        values,
      );
      const inserted = new Map(rows.map((row) => [row.id, row]));
      created.forEach(({ index }, n) => {
        const record = toRecord(c, inserted.get(tuples[n][0])!);
        result.set(index, record);
        events.push({ action: 'created', recordId: record.id, after: record });
      });
    }
    const updates = items.flatMap((item, index) => (targets[index] ? [{ index, id: targets[index]!, item }] : []));
    if (updates.length > 0) {
      const columns = new Set<string>();
      const changes = updates.map(({ id, item }) => {
        const { id: _id, ...fields } = item;
        const assigned = updateAssignments(c, fields);
        const change: Row = { __id: id, __set: assigned.columns };
        assigned.columns.forEach((col, i) => {
          columns.add(col);
          const value = assigned.values[i];
          change[col] = columnType(c, col) === 'jsonb' && typeof value === 'string' ? JSON.parse(value) : value;
        });
        return change;
      });
      const list = [...columns];
      const types = ['"__id" uuid', '"__set" text[]', ...list.map((col) => `"${col}" ${columnType(c, col)}`)];
      const next = list.map((col) => `CASE WHEN '${col}' = ANY(r."__set") THEN r."${col}" ELSE t."${col}" END`);
      const changed = list.length
        ? `t."deletedAt" IS NOT NULL OR (${list.map((col) => `t."${col}"`).join(', ')}, NULL) IS DISTINCT FROM (${next.join(', ')}, NULL)`
        : 't."deletedAt" IS NOT NULL';
      const sets = [
        ...list.map((col, i) => `"${col}" = ${next[i]}`),
        `"updatedAt" = CASE WHEN ${changed} THEN now() ELSE t."updatedAt" END`,
        `"deletedAt" = NULL`,
      ];
      const { rows } = await client.query(
        `UPDATE "${c.table}" AS t SET ${sets.join(', ')} FROM jsonb_to_recordset($1::jsonb) AS r(${types.join(', ')}) ` +
          `WHERE t."id" = r."__id" RETURNING ${c.selectList.replace(/(^|, )"/g, '$1t."')}`,
        [JSON.stringify(changes)],
      );
      const after = new Map(rows.map((row) => [row.id as string, row]));
      for (const { index, id } of updates) {
        const current = toRecord(c, after.get(id)!);
        result.set(index, current);
        const previous = toRecord(c, byId.get(id) ?? candidates.find((row) => row.id === id)!);
        if (previous.deletedAt !== null) events.push({ action: 'restored', recordId: id, after: current });
        const updated = updatedEvent(id, { ...previous, deletedAt: current.deletedAt }, current);
        if (updated.updatedFields!.length > 0) events.push(updated);
      }
    }
    await recordEvents(client, c, events, actor);
    return items.map((_, index) => result.get(index)!);
  });
  return { status: 201, body: { data: { [`create${c.pascalPlural}`]: await shape(records, depth) } } };
}

function valueAt(record: Row, path: string): unknown {
  const [name, subKey] = path.split('.');
  const value = record[name];
  if (subKey === undefined) return value;
  return isObject(value) ? value[subKey] : undefined;
}

async function findDuplicates(c: Collection, body: unknown, params: URLSearchParams) {
  const depth = parseDepth(params.get('depth'), c);
  if (!isObject(body) || !Array.isArray(body.data) || body.data.length === 0 || body.data.length > BATCH_MAX) {
    throw badRequest('the baseline takes {"data": [<partial record>, ...]} (1 to 200 records)');
  }
  const inputs = body.data as unknown[];
  const problems = inputs.flatMap((input, i) => validate(c, input, true, `[${i}] `));
  if (problems.length) throw badRequest(...problems);
  const results = await Promise.all(
    inputs.map(async (input) => {
      const values: unknown[] = [];
      const branches: string[] = [];
      for (const criterion of c.duplicateCriteria) {
        const found = criterion.map(([path]) => valueAt(input as Row, path));
        if (!found.every((v) => typeof v === 'string' && v.trim().length >= 3)) continue;
        const parts = criterion.map(
          ([, column], i) => (values.push(found[i]), `lower("${column}") = lower($${values.length})`),
        );
        branches.push(`(${parts.join(' AND ')})`);
      }
      if (branches.length === 0) return { rows: [] as Row[], totalCount: 0 };
      const rows = await query(
        `SELECT ${c.selectList}, count(*) OVER () AS "__total" FROM "${c.table}" ` +
          `WHERE "deletedAt" IS NULL AND (${branches.join(' OR ')}) ORDER BY "id" LIMIT ${MAX_DUPLICATES}`,
        values,
      );
      return { rows, totalCount: rows.length ? Number(rows[0].__total) : 0 };
    }),
  );
  const data = await Promise.all(
    results.map(async ({ rows, totalCount }) => {
      const records = await shape(
        rows.map((row) => toRecord(c, row)),
        depth,
      );
      return {
        totalCount,
        pageInfo: {
          hasNextPage: totalCount > MAX_DUPLICATES,
          hasPreviousPage: false,
          startCursor: records.length ? encodeBaselineCursor(CURSOR_KEY, records[0].id) : null,
          endCursor: records.length ? encodeBaselineCursor(CURSOR_KEY, records[records.length - 1].id) : null,
        },
        companyDuplicates: records,
        [`${c.singular}Duplicates`]: records,
      };
    }),
  );
  return { status: 200, body: { data } };
}

/* ------------------------------------------------------------------ group by and search (API.md section 12) */

/** What group by needs of opportunities: the stage dimension (a SELECT: its options order the groups) and the amount. */
const OPPORTUNITY_GROUPS = {
  table: 'opportunity',
  dimensions: {
    stage: { column: 'stage', options: ['NEW', 'SCREENING', 'MEETING', 'PROPOSAL', 'CUSTOMER'] },
  } as Record<string, { column: string; options: string[] }>,
  /** Aggregate keys over amount.amountMicros (NUMERIC): sums, minima and maxima come back as numerics, averages as float8. */
  aggregates: /^(sum|min|max|avg)AmountAmountMicros$/,
  aggregateColumn: 'amountAmountMicros',
};
const GROUPS_DEFAULT = 50;
const GROUPS_MAX = 200;

function jsonArray(name: string, raw: string | null): unknown[] {
  if (raw === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} must be a JSON array`);
  }
  if (!Array.isArray(value)) throw badRequest(`${name} must be a JSON array`);
  return value;
}

/**
 * GET /rest/opportunities/groupBy?group_by=[{"stage":true}]&aggregate=["sumAmountAmountMicros"]: one
 * GROUP BY statement, as the service's (groups in the order of the stage options, the null group last).
 */
async function groupBy(params: URLSearchParams) {
  const g = OPPORTUNITY_GROUPS;
  const dimensions = jsonArray('group_by', params.get('group_by')).map((dim) => {
    const name = isObject(dim) && Object.keys(dim).length === 1 ? Object.keys(dim)[0] : undefined;
    if (name === undefined || (dim as Row)[name] !== true || !g.dimensions[name])
      throw badRequest(`the baseline groups by ${Object.keys(g.dimensions).join(', ')} only`);
    return g.dimensions[name];
  });
  const aggregates = jsonArray('aggregate', params.get('aggregate')).map((key) => {
    const m = typeof key === 'string' ? g.aggregates.exec(key) : null;
    if (!m) throw badRequest(`the baseline aggregates ${g.aggregates.source} only`);
    return { key: key as string, op: m[1] };
  });
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? GROUPS_DEFAULT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > GROUPS_MAX) throw badRequest(`limit '${rawLimit}' is invalid`);
  const values: unknown[] = [];
  const select = [
    ...dimensions.map((d, i) => `"${d.column}" AS "d${i}"`),
    'count(*)::int AS "totalCount"',
    ...aggregates.map(
      (a, i) =>
        `${a.op === 'avg' ? `avg("${g.aggregateColumn}")::float8` : `${a.op}("${g.aggregateColumn}")`} AS "a${i}"`,
    ),
  ];
  const orderBy = dimensions.map(
    (d) => (values.push(d.options), `array_position($${values.length}::text[], "${d.column}"::text) ASC NULLS LAST`),
  );
  const rows = await query(
    `SELECT ${select.join(', ')} FROM "${g.table}" WHERE "deletedAt" IS NULL` +
      `${dimensions.length ? ` GROUP BY ${dimensions.map((_, i) => i + 1).join(', ')}` : ''} ` +
      `ORDER BY ${orderBy.join(', ') || '"totalCount" DESC'} LIMIT ${limit}`,
    values,
  );
  const groups = rows.map((row) => {
    const group: Row = {
      groupByDimensionValues: dimensions.map((_, i) => row[`d${i}`] ?? null),
      totalCount: row.totalCount,
    };
    aggregates.forEach((a, i) => (group[a.key] = row[`a${i}`] === null ? null : Number(row[`a${i}`])));
    return group;
  });
  return { status: 200, body: groups };
}

/**
 * The collections with a search vector, in the service's order (by plural name): each
 * one a branch of the search statement. Only people, companies and opportunities hold rows in
 * the benchmark; the others are searched all the same.
 */
const SEARCHABLE: {
  singular: string;
  table: string;
  toRecord?: (row: Row) => Row;
  label?: (record: Row) => string;
  image?: string;
}[] = [
  {
    singular: 'company',
    table: 'company',
    toRecord: (row) => toRecord(companies, row),
    label: (r) => String(r.name ?? ''),
  },
  { singular: 'note', table: 'note' },
  { singular: 'opportunity', table: 'opportunity', toRecord: toOpportunityRecord, label: (r) => String(r.name ?? '') },
  {
    singular: 'person',
    table: 'person',
    toRecord: (row) => toRecord(people, row),
    label: (r) => [r.name?.firstName, r.name?.lastName].filter(Boolean).join(' '),
    image: 'avatarUrl',
  },
  { singular: 'task', table: 'task' },
  { singular: 'workflowRun', table: 'workflowRun' },
  { singular: 'workflowVersion', table: 'workflowVersion' },
  { singular: 'workflow', table: 'workflow' },
  { singular: 'workspaceMember', table: 'workspaceMember' },
];
const SEARCH_DEFAULT = 20;
const SEARCH_MAX = 100;

/**
 * GET /rest/search?query=...&limit=...: every word a prefix (accents, case and `@` ignored),
 * one UNION ALL statement over the searchable tables (their GIN indexes), ranked, one page; as
 * the service's. No cursor (the benchmark asks for first pages).
 */
async function search(params: URLSearchParams) {
  const words = (params.get('query') ?? '')
    .replace(/@/g, ' ')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}._+-]/gu, ''))
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length === 0) throw badRequest('query is required: one or more words to search for');
  if (params.has('objects') || params.has('starting_after'))
    throw badRequest('the baseline searches every collection, first page only');
  const rawLimit = params.get('limit');
  const limit = rawLimit === null ? SEARCH_DEFAULT : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX)
    throw badRequest(`limit '${rawLimit}' is invalid: an integer from 1 to 100`);
  const values: unknown[] = [words.map((w) => `'${w}':*`).join(' & '), words.map((w) => `'${w}'`).join(' | ')];
  const prefixes = `to_tsquery('simple', $1)`;
  const exact = `to_tsquery('simple', $2)`;
  const branches = SEARCHABLE.map((s) => {
    values.push(s.singular);
    return (
      `SELECT $${values.length}::text AS "objectNameSingular", t."id" AS "recordId", ` +
      `(ts_rank(t."searchVector", ${prefixes}) + ts_rank(t."searchVector", ${exact}))::real AS "tsRank", ` +
      `ts_rank_cd(t."searchVector", ${prefixes}) AS "tsRankCD", to_jsonb(t) - 'searchVector' AS "record" ` +
      `FROM "${s.table}" AS t WHERE t."searchVector" @@ ${prefixes} AND t."deletedAt" IS NULL`
    );
  });
  const rows = await query(
    `SELECT * FROM (${branches.join(' UNION ALL ')}) AS s ORDER BY "tsRank" DESC, "recordId" ASC LIMIT ${limit + 1}`,
    values,
  );
  const page = rows.slice(0, limit);
  const results = page.map((row) => {
    const collection = SEARCHABLE.find((s) => s.singular === row.objectNameSingular);
    if (!collection?.toRecord) throw new Error(`the baseline cannot show a ${row.objectNameSingular} found by search`);
    const record = collection.toRecord(row.record);
    return {
      objectNameSingular: collection.singular,
      recordId: row.recordId,
      label: collection.label!(record),
      imageUrl: collection.image && record[collection.image] ? record[collection.image] : null,
      tsRank: row.tsRank,
      tsRankCD: row.tsRankCD,
      record,
    };
  });
  const last = page[page.length - 1];
  return {
    status: 200,
    body: {
      data: { search: results },
      pageInfo: {
        hasNextPage: rows.length > limit,
        endCursor: last ? encodeBaselineCursor(CURSOR_KEY, last.recordId) : null,
      },
    },
  };
}

/* ------------------------------------------------------------------ authentication (as src/core/auth/api-key.verifier.ts) */

interface KeyRow {
  id: string;
  name: string;
  tokenHash: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/**
 * Mirrors the service exactly: SHA-256 of the token looked up by hash (a named prepared
 * statement, as the service's), compared in constant time, and a verified key trusted for
 * API_KEY_CACHE_TTL_MS (2000 ms) before it is looked up again, as the service's ApiKeyVerifier
 * does; revokedAt and expiresAt are checked on every request.
 */
const keyCache = new Map<string, { row: KeyRow; until: number }>();
const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i;
const TOKEN = /^crm_[A-Za-z0-9_-]{43}$/;
const unauthenticated = (message: string) => new HttpError(401, 'UNAUTHENTICATED', [message]);

async function authenticate(header: string | undefined): Promise<Actor> {
  if (!header) throw unauthenticated('Missing bearer token: send the header Authorization: Bearer <api key>');
  const match = BEARER.exec(header);
  if (!match) throw unauthenticated('Malformed Authorization header: expected Bearer <api key>');
  if (!TOKEN.test(match[1])) throw unauthenticated('Invalid API key');
  const hash = createHash('sha256').update(match[1]).digest('hex');
  const now = Date.now();
  const cached = keyCache.get(hash);
  let row = cached && cached.until > now ? cached.row : undefined;
  if (!row) {
    const { rows } = await pool.query<KeyRow>({
      name: 'auth:api-key-by-hash',
      text: `SELECT "id", "name", "tokenHash", "expiresAt", "revokedAt" FROM "apiKey" WHERE "tokenHash" = $1 AND "deletedAt" IS NULL`,
      values: [hash],
    });
    row = rows[0];
    if (!row) {
      keyCache.delete(hash);
      throw unauthenticated('Invalid API key');
    }
    keyCache.set(hash, { row, until: now + API_KEY_CACHE_TTL_MS });
  }
  if (!timingSafeEqual(Buffer.from(row.tokenHash, 'hex'), Buffer.from(hash, 'hex')))
    throw unauthenticated('Invalid API key');
  if (row.revokedAt !== null) throw unauthenticated('API key revoked');
  if (row.expiresAt !== null && Date.parse(iso(row.expiresAt)!) <= Date.now()) throw unauthenticated('API key expired');
  return { apiKeyId: row.id, apiKeyName: row.name, workspaceMemberId: null };
}

/* ------------------------------------------------------------------ HTTP */

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT) reject(new HttpError(413, 'PayloadTooLargeException', ['request entity too large']));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        reject(badRequest('Malformed JSON body'));
      }
    });
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

const ONE = /^\/rest\/(people|companies)\/([^/]+)$/;
const MANY = /^\/rest\/(people|companies)$/;
const BATCH = /^\/rest\/batch\/(people|companies)$/;
const DUPLICATES = /^\/rest\/(people|companies)\/duplicates$/;
const GROUP_BY = '/rest/opportunities/groupBy';
const SEARCH = '/rest/search';

async function route(req: IncomingMessage): Promise<{ status: number; body: unknown }> {
  const url = new URL(req.url ?? '/', 'http://baseline');
  const path = url.pathname;
  if (req.method === 'GET' && path === '/health') return { status: 200, body: { status: 'ok' } };
  const actor = await authenticate(req.headers.authorization);
  const params = url.searchParams;
  let m: RegExpExecArray | null;
  if (req.method === 'GET' && (m = MANY.exec(path))) {
    const countNone = /(^|[\s,;])count=none\b/.test(String(req.headers.prefer ?? ''));
    return findMany(COLLECTIONS[m[1]], params, countNone);
  }
  if (req.method === 'GET' && path === GROUP_BY) return groupBy(params);
  if (req.method === 'GET' && path === SEARCH) return search(params);
  if (req.method === 'POST' && (m = DUPLICATES.exec(path)))
    return findDuplicates(COLLECTIONS[m[1]], await readBody(req), params);
  if (req.method === 'GET' && (m = ONE.exec(path))) return findOne(COLLECTIONS[m[1]], m[2], params);
  if (req.method === 'POST' && (m = MANY.exec(path))) {
    const c = COLLECTIONS[m[1]];
    const body = await readBody(req);
    const problems = validate(c, body, false);
    if (problems.length) throw badRequest(...problems);
    const [record] = await createMany(c, [body as Row], params, actor);
    return { status: 201, body: { data: { [`create${c.pascal}`]: record } } };
  }
  if (req.method === 'POST' && (m = BATCH.exec(path))) {
    const c = COLLECTIONS[m[1]];
    const body = await readBody(req);
    if (!Array.isArray(body) || body.length === 0) throw badRequest('body must be a non-empty array');
    if (body.length > BATCH_MAX) throw badRequest(`Maximum number of records to upsert is ${BATCH_MAX}.`);
    if (params.get('upsert') === 'true') {
      // each item a partial record (the update schema) with an optional id
      const problems = body.flatMap((input, i) => {
        if (!isObject(input)) return [`[${i}] body must be an object`];
        const { id, ...fields } = input;
        return [
          ...(id !== undefined && (typeof id !== 'string' || !UUID.test(id)) ? [`[${i}] id must be a UUID`] : []),
          ...validate(c, fields, true, `[${i}] `),
        ];
      });
      if (problems.length) throw badRequest(...problems);
      return upsertMany(c, body as Row[], params, actor);
    }
    const problems = body.flatMap((input, i) => validate(c, input, false, `[${i}] `));
    if (problems.length) throw badRequest(...problems);
    const records = await createMany(c, body as Row[], params, actor);
    return { status: 201, body: { data: { [`create${c.pascalPlural}`]: records } } };
  }
  if (req.method === 'PATCH' && (m = MANY.exec(path))) {
    const c = COLLECTIONS[m[1]];
    const body = await readBody(req);
    const problems = validate(c, body, true);
    if (problems.length) throw badRequest(...problems);
    return updateMany(c, body as Row, params, actor);
  }
  if (req.method === 'PATCH' && (m = ONE.exec(path))) {
    const c = COLLECTIONS[m[1]];
    const body = await readBody(req);
    const problems = validate(c, body, true);
    if (problems.length) throw badRequest(...problems);
    return updateOne(c, m[2], body as Row, params, actor);
  }
  throw notFound(`Cannot ${req.method} ${path}`);
}

const server = createServer((req, res) => {
  route(req).then(
    ({ status, body }) => send(res, status, body),
    (error: unknown) => {
      if (error instanceof HttpError) {
        const headers: Record<string, string> = error.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {};
        send(res, error.status, { statusCode: error.status, error: error.error, messages: error.messages }, headers);
        return;
      }
      const pg = error as { code?: string; message?: string };
      if (pg.code === '23505') {
        send(res, 400, { statusCode: 400, error: 'BadRequestException', messages: ['A duplicate entry was detected'] });
        return;
      }
      process.stderr.write(`baseline: ${pg.message ?? String(error)}\n`);
      send(res, 500, { statusCode: 500, error: 'InternalServerErrorException', messages: ['Internal server error'] });
    },
  );
});
server.listen(PORT, HOST, () => process.stdout.write(`baseline listening on http://${HOST}:${PORT}\n`));

const stop = () => {
  setTimeout(() => process.exit(0), 2000).unref();
  server.close(() => void pool.end().then(() => process.exit(0)));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
