import { Client } from 'pg';
import { generateToken, hashToken } from '../../src/core/auth/api-key-tokens';
import { ProgressBar } from './progress';
import { company, CompanyRow, opportunity, OpportunityRow, person, PersonRow } from './seed-data';

/** The same URL with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
}

/** Creates the database of `url` when missing (through the `postgres` database of the same server). */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  const admin = new Client({ connectionString: withDatabase(url, 'postgres') });
  await admin.connect();
  try {
    const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount;
    if (exists) return false;
    await admin.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
    return true;
  } finally {
    await admin.end();
  }
}

export async function connect(url: string): Promise<Client> {
  const client = new Client({ connectionString: url, application_name: 'crm-bench' });
  await client.connect();
  return client;
}

/**
 * Seeded rows carry createdBy.source = IMPORT; rows the benchmark creates through the API carry
 * API (the service sets it from the key). So the seeded count survives runs, and leftovers of a
 * run are easy to remove.
 */
export async function seededCounts(db: Client): Promise<{ companies: number; people: number; opportunities: number }> {
  const count = async (table: string) =>
    (await db.query(`SELECT count(*)::int AS n FROM "${table}" WHERE "createdBySource" = 'IMPORT'`)).rows[0]
      .n as number;
  return {
    companies: await count('company'),
    people: await count('person'),
    opportunities: await count('opportunity'),
  };
}

const CHUNK = 5_000;

const COMPANY_COLUMNS: [string, string, (r: CompanyRow) => unknown][] = [
  ['id', 'uuid', (r) => r.id],
  ['createdAt', 'timestamptz', (r) => r.createdAt],
  ['updatedAt', 'timestamptz', (r) => r.createdAt],
  ['name', 'text', (r) => r.name],
  ['domainNamePrimaryLinkUrl', 'text', (r) => r.domain],
  ['employees', 'float8', (r) => r.employees],
  ['linkedinLinkPrimaryLinkUrl', 'text', (r) => r.linkedin],
  ['xLinkPrimaryLinkUrl', 'text', (r) => r.xLink],
  ['annualRecurringRevenueAmountMicros', 'numeric', (r) => r.arrMicros],
  ['annualRecurringRevenueCurrencyCode', 'text', (r) => r.arrCurrency],
  ['addressAddressStreet1', 'text', (r) => r.street1],
  ['addressAddressCity', 'text', (r) => r.city],
  ['addressAddressPostcode', 'text', (r) => r.postcode],
  ['addressAddressCountry', 'text', (r) => r.country],
  ['addressAddressLat', 'numeric', (r) => r.lat],
  ['addressAddressLng', 'numeric', (r) => r.lng],
  ['idealCustomerProfile', 'bool', (r) => r.icp],
  ['position', 'float8', (r) => r.position],
];

const PERSON_COLUMNS: [string, string, (r: PersonRow & { companyId: string | null }) => unknown][] = [
  ['id', 'uuid', (r) => r.id],
  ['createdAt', 'timestamptz', (r) => r.createdAt],
  ['updatedAt', 'timestamptz', (r) => r.createdAt],
  ['nameFirstName', 'text', (r) => r.firstName],
  ['nameLastName', 'text', (r) => r.lastName],
  ['emailsPrimaryEmail', 'text', (r) => r.email],
  ['linkedinLinkPrimaryLinkUrl', 'text', (r) => r.linkedin],
  ['jobTitle', 'text', (r) => r.jobTitle],
  ['phonesPrimaryPhoneNumber', 'text', (r) => r.phoneNumber],
  ['phonesPrimaryPhoneCountryCode', 'text', (r) => r.phoneCountry],
  ['phonesPrimaryPhoneCallingCode', 'text', (r) => r.phoneCalling],
  ['city', 'text', (r) => r.city],
  ['position', 'float8', (r) => r.position],
  ['companyId', 'uuid', (r) => r.companyId],
];

type OpportunityInsert = OpportunityRow & { companyId: string | null; pointOfContactId: string | null };
const OPPORTUNITY_COLUMNS: [string, string, (r: OpportunityInsert) => unknown][] = [
  ['id', 'uuid', (r) => r.id],
  ['createdAt', 'timestamptz', (r) => r.createdAt],
  ['updatedAt', 'timestamptz', (r) => r.createdAt],
  ['name', 'text', (r) => r.name],
  ['amountAmountMicros', 'numeric', (r) => r.amountMicros],
  ['amountCurrencyCode', 'text', (r) => r.currency],
  ['closeDate', 'timestamptz', (r) => r.closeDate],
  ['stage', '"opportunity_stage_enum"', (r) => r.stage],
  ['position', 'float8', (r) => r.position],
  ['companyId', 'uuid', (r) => r.companyId],
  ['pointOfContactId', 'uuid', (r) => r.pointOfContactId],
];

/** One INSERT ... SELECT FROM unnest(arrays): one bound array per column, thousands of rows per statement. */
async function insertChunk<R>(db: Client, table: string, columns: [string, string, (r: R) => unknown][], rows: R[]) {
  const names = columns.map(([c]) => `"${c}"`).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  await db.query(
    `INSERT INTO "${table}" (${names}, "createdBySource", "createdByName", "createdByContext") ` +
      `SELECT *, 'IMPORT', 'Benchmark seed', '{}'::jsonb FROM unnest(${arrays})`,
    columns.map(([, , get]) => rows.map(get)),
  );
}

/**
 * Empties and refills companies and people with `rows` of each (deterministic data), then the
 * opportunities (seedOpportunities). TRUNCATE ... CASCADE also empties every table that
 * references them (timeline, opportunities, ...).
 */
export async function seed(db: Client, rows: number): Promise<void> {
  await db.query('TRUNCATE "company", "person", "auditLog", "timelineActivity", "webhookDelivery" CASCADE');
  const bar = new ProgressBar(`seeding ${rows.toLocaleString('en-US')} companies + people`, rows * 2);
  const companyIds: string[] = new Array(rows);
  for (let start = 0; start < rows; start += CHUNK) {
    const chunk: CompanyRow[] = [];
    for (let i = start; i < Math.min(rows, start + CHUNK); i++) {
      const row = company(i);
      companyIds[i] = row.id;
      chunk.push(row);
    }
    await insertChunk(db, 'company', COMPANY_COLUMNS, chunk);
    bar.update(start + chunk.length);
  }
  for (let start = 0; start < rows; start += CHUNK) {
    const chunk: (PersonRow & { companyId: string | null })[] = [];
    for (let j = start; j < Math.min(rows, start + CHUNK); j++) {
      const row = person(j, rows);
      chunk.push({ ...row, companyId: row.companyIndex === null ? null : companyIds[row.companyIndex] });
    }
    await insertChunk(db, 'person', PERSON_COLUMNS, chunk);
    bar.update(rows + start + chunk.length);
  }
  bar.done();
  await seedOpportunities(db, rows);
}

/**
 * Empties and refills opportunities with `rows` of them, linked to the seeded companies and
 * people (their ids are those of the deterministic seed), then VACUUM ANALYZE of the three
 * tables: statistics for the planner, and the GIN pending lists of the search vectors flushed
 * into the indexes (otherwise every search scans the pending list too).
 */
export async function seedOpportunities(db: Client, rows: number): Promise<void> {
  await db.query('TRUNCATE "opportunity" CASCADE');
  const bar = new ProgressBar(`seeding ${rows.toLocaleString('en-US')} opportunities`, rows);
  const companyIds = Array.from({ length: rows }, (_, i) => company(i).id);
  const personIds = Array.from({ length: rows }, (_, j) => person(j, rows).id);
  for (let start = 0; start < rows; start += CHUNK) {
    const chunk: OpportunityInsert[] = [];
    for (let k = start; k < Math.min(rows, start + CHUNK); k++) {
      const row = opportunity(k, rows, rows);
      chunk.push({
        ...row,
        companyId: row.companyIndex === null ? null : companyIds[row.companyIndex],
        pointOfContactId: row.pointOfContactIndex === null ? null : personIds[row.pointOfContactIndex],
      });
    }
    await insertChunk(db, 'opportunity', OPPORTUNITY_COLUMNS, chunk);
    bar.update(start + chunk.length);
  }
  bar.done();
  process.stderr.write('analyzing...\n');
  await vacuumSeeded(db);
}

/** VACUUM ANALYZE of the seeded tables (also flushes the GIN pending lists of their search vectors). */
export async function vacuumSeeded(db: Client): Promise<void> {
  for (const table of SEEDED_TABLES) await db.query(`VACUUM ANALYZE "${table}"`);
}
export const SEEDED_TABLES = ['company', 'person', 'opportunity'] as const;

/**
 * Removes what earlier runs left: records created through the API (createdBy.source = API),
 * events, outbox rows and benchmark API keys.
 */
export async function removeRunLeftovers(db: Client, { keys }: { keys: boolean }): Promise<void> {
  await db.query(`DELETE FROM "opportunity" WHERE "createdBySource" <> 'IMPORT'`);
  await db.query(`DELETE FROM "person" WHERE "createdBySource" <> 'IMPORT'`);
  await db.query(`DELETE FROM "company" WHERE "createdBySource" <> 'IMPORT'`);
  await db.query('TRUNCATE "auditLog", "timelineActivity", "webhookDelivery"');
  if (keys) {
    await db.query(`DELETE FROM "apiKey" WHERE "name" LIKE 'benchmark %'`);
    await db.query(`DELETE FROM "role" WHERE "name" LIKE 'benchmark %'`);
  }
}

/**
 * Gives seeded people back the values the scenarios that change them (update many, upsert) may
 * have changed: jobTitle and city from the deterministic seed, updatedAt = createdAt (as
 * seeded). Only rows that differ are written. Returns how many rows were restored.
 */
export async function restoreSeededPeople(db: Client, rows: number): Promise<number> {
  let restored = 0;
  for (let start = 0; start < rows; start += CHUNK * 10) {
    const positions: number[] = [];
    const jobTitles: string[] = [];
    const cities: string[] = [];
    for (let j = start; j < Math.min(rows, start + CHUNK * 10); j++) {
      const row = person(j, rows);
      positions.push(row.position);
      jobTitles.push(row.jobTitle);
      cities.push(row.city);
    }
    const result = await db.query(
      `UPDATE "person" AS p SET "jobTitle" = s."jobTitle", "city" = s."city", "updatedAt" = p."createdAt" ` +
        `FROM unnest($1::float8[], $2::text[], $3::text[]) AS s("position", "jobTitle", "city") ` +
        `WHERE p."position" = s."position" AND p."createdBySource" = 'IMPORT' ` +
        `AND (p."jobTitle", p."city", p."updatedAt") IS DISTINCT FROM (s."jobTitle", s."city", p."createdAt")`,
      [positions, jobTitles, cities],
    );
    restored += result.rowCount ?? 0;
  }
  return restored;
}

/**
 * An API key made as the service makes them (random token, SHA-256 hash stored), valid for a day;
 * with `grants`, of a role with those grants (API.md section 14), else an admin key.
 */
export async function createBenchKey(db: Client, grants?: unknown[]): Promise<{ id: string; token: string }> {
  const token = generateToken();
  const stamp = new Date().toISOString();
  let roleId: string | null = null;
  if (grants) {
    const role = await db.query(`INSERT INTO "role" ("name", "permissions") VALUES ($1, $2) RETURNING "id"`, [
      `benchmark ${stamp}`,
      JSON.stringify(grants),
    ]);
    roleId = role.rows[0].id;
  }
  const [row] = (
    await db.query(
      `INSERT INTO "apiKey" ("name", "tokenHash", "expiresAt", "roleId") VALUES ($1, $2, now() + interval '1 day', $3) RETURNING "id"`,
      [`benchmark ${grants ? 'role ' : ''}${stamp}`, hashToken(token), roleId],
    )
  ).rows;
  return { id: row.id, token };
}
