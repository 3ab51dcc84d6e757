import { CITIES, FIRST_NAMES, JOB_TITLES, LAST_NAMES, NAME_NOUNS, NAME_PREFIXES } from './seed-data';

/** Who answers: one of the service's HTTP adapters, the baseline server, or a peer (another product, `--peers`). */
export type TargetKind = 'service' | 'baseline' | 'peer';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Data the scenarios draw their requests from, prepared once before the runs. */
export interface ScenarioData {
  /** Seeded people (ids for get one, names and emails for duplicates). */
  people: { id: string; firstName: string; lastName: string; email: string }[];
  /** Seeded company ids (updates, companyId of created people). */
  companyIds: string[];
  /** Keyset cursors ~1000 pages deep into companies (limit 60), for each kind of target. */
  deepCursors: Record<'service' | 'baseline', string[]>;
  /** Unique per benchmark run: keeps created emails and domains unique across runs. */
  runTag: string;
  /** Seeded people (and companies): `position` runs over 0..rows-1, one value per person. */
  rows: number;
  /** With --peers: what the peer's requests need (prepared only then). */
  peer?: PeerData;
}

/** For Platformatic DB's requests: the columns to return (the service's: all but the search vector), and the NOT NULL values its updates must resend. */
export interface PeerData {
  fields: { person: string; company: string };
  /** Per sampled company id: its NOT NULL columns (Platformatic's PUT validates a whole record). */
  companies: Map<string, Record<string, unknown>>;
}

export interface Scenario {
  name: string;
  description: string;
  /** Records written per request (create many: 60), for records/s. */
  recordsPerRequest?: number;
  /** Writes rows (run after the reads of a round; what they created is removed after each round). */
  writes?: boolean;
  /**
   * Changes seeded people (jobTitle, city, updatedAt): after each run they get their seeded
   * values back (lib/database.ts restoreSeededPeople), so every target and round starts alike.
   */
  changesSeed?: boolean;
  /** Concurrent connections of this scenario whatever --connections says (heavy requests: 1-2). */
  connections?: number;
  /**
   * Reads only: after the rounds, the statements the service sends for the first `explain`
   * requests of the scenario are captured and run under EXPLAIN (ANALYZE, BUFFERS): the SQL's
   * own time and plan at bench size, printed after the table and kept in the JSON.
   */
  explain?: number;
  /**
   * `role`: sent with the key of a role with one grant per collection (every action, no hidden
   * field, no row filter): what the access checks of API.md section 14 cost, beside the same
   * scenario with an admin key.
   */
  key?: 'role';
  /** How the pre-check compares the service's answer with the baseline's: the same JSON, or the same shape (writes). */
  compare: 'json' | 'shape';
  /** Top-level keys the comparison ignores (count=none: whether totalCount is there is up to each). */
  ignoreKeys?: string[];
  /** The i-th request of a run (`stream` keeps concurrent runs' created values apart). */
  request(data: ScenarioData, i: number, target: TargetKind, stream: string): HttpRequest;
  /**
   * The equivalent i-th request for a peer (Platformatic DB's REST API over the same tables),
   * when it can serve the scenario; otherwise the peer's row says n/a.
   */
  peer?(data: ScenarioData, i: number, stream: string): HttpRequest;
}

const EMPLOYEE_THRESHOLDS = [10, 50, 100, 250, 500, 1000];
/** The 12 most frequent cities of the seed (from 18 % of people down to ~2.7 %). */
const LIST_CITIES = CITIES.slice(0, 12).map(([city]) => city);
const q = encodeURIComponent;
const JSON_HEADERS = { 'content-type': 'application/json' };

/** Rows of the i-th update many of `size` records: a window of positions, consecutive requests on disjoint windows. */
function positionWindow(d: ScenarioData, i: number, size: number): string {
  const windows = Math.max(1, Math.floor(d.rows / size));
  const from = (i % windows) * size;
  return `position[gte]:${from},position[lt]:${from + size}`;
}

/** PATCH /rest/people?filter=<window of `size` positions>&depth=0 {jobTitle, city}, values unique per request (every record changes). */
function updateMany(size: number): Scenario['request'] {
  return (d, i, _t, stream) => ({
    method: 'PATCH',
    path: `/rest/people?depth=0&filter=${q(positionWindow(d, i, size))}`,
    headers: JSON_HEADERS,
    body: JSON.stringify({
      jobTitle: `Bench ${d.runTag}-${stream}-${i}`,
      city: `${CITIES[i % CITIES.length][0]} ${d.runTag}-${stream}-${i}`,
    }),
  });
}

/** Existing people per upsert request (the other half of the 200 items are new). */
const UPSERT_EXISTING = 100;

/**
 * Two-word searches as a user types them, over seeded values: a first name and the start of a
 * last name (~10 people each), or the first word of a company name and the start of its second
 * (~80 companies and as many opportunities, named after their company).
 */
const SEARCH_QUERIES = Array.from({ length: 40 }, (_, k) =>
  k % 2 === 0
    ? `${FIRST_NAMES[(k * 7) % FIRST_NAMES.length]} ${LAST_NAMES[(k * 13) % LAST_NAMES.length].slice(0, 3)}`
    : `${NAME_PREFIXES[(k * 3) % NAME_PREFIXES.length].split(' ')[0]} ${NAME_NOUNS[(k * 11) % NAME_NOUNS.length].slice(0, 4)}`,
);
const GROUP_BY_STAGE = JSON.stringify([{ stage: true }]);
const SUM_OF_AMOUNTS = JSON.stringify(['sumAmountAmountMicros']);

/** The person create-one sends (the API's shape), the same for every target. */
function newPerson(d: ScenarioData, i: number, stream: string) {
  const first = FIRST_NAMES[i % FIRST_NAMES.length];
  const last = LAST_NAMES[(i * 7) % LAST_NAMES.length];
  const [city, country, calling] = CITIES[i % CITIES.length];
  return {
    name: { firstName: first, lastName: last },
    emails: { primaryEmail: `${first}.${last}.${d.runTag}.${stream}.${i}@bench-run.example`.toLowerCase() },
    jobTitle: JOB_TITLES[i % JOB_TITLES.length],
    city,
    phones: {
      primaryPhoneNumber: String(600_000_000 + i),
      primaryPhoneCountryCode: country,
      primaryPhoneCallingCode: calling,
    },
    linkedinLink: { primaryLinkUrl: `https://www.linkedin.com/in/${d.runTag}-${stream}-${i}` },
    companyId: d.companyIds[i % d.companyIds.length],
  };
}

const peerData = (d: ScenarioData): PeerData => {
  if (!d.peer) throw new Error('peer data not prepared');
  return d.peer;
};

/** Platformatic's list: `where.<column>.<op>`, `orderby.<column>=asc`, the columns to return. */
const peerListCompanies = (d: ScenarioData, i: number, orderBy: string) =>
  `/company/?limit=60&where.employees.gte=${EMPLOYEE_THRESHOLDS[i % EMPLOYEE_THRESHOLDS.length]}&${orderBy}&fields=${peerData(d).fields.company}`;

const listCompanies = (i: number) =>
  `/rest/companies?limit=60&depth=0&filter=${q(`employees[gte]:${EMPLOYEE_THRESHOLDS[i % EMPLOYEE_THRESHOLDS.length]}`)}`;

export const SCENARIOS: Scenario[] = [
  {
    name: 'get-d0',
    description: 'GET /rest/people/:id?depth=0 (rotating over 5,000 seeded people)',
    compare: 'json',
    request: (d, i) => ({ method: 'GET', path: `/rest/people/${d.people[i % d.people.length].id}?depth=0` }),
    peer: (d, i) => ({
      method: 'GET',
      path: `/person/${d.people[i % d.people.length].id}?fields=${peerData(d).fields.person}`,
    }),
  },
  {
    name: 'get-d1',
    description:
      'GET /rest/people/:id?depth=1: the person, its company and its 8 one-to-many relations (9 relation queries)',
    compare: 'json',
    request: (d, i) => ({ method: 'GET', path: `/rest/people/${d.people[i % d.people.length].id}?depth=1` }),
  },
  {
    name: 'list-d0',
    description:
      'GET /rest/companies?limit=60&depth=0&filter=employees[gte]:N (N rotating 10..1000; 28-73 % of rows match) with the exact totalCount',
    compare: 'json',
    request: (_d, i) => ({ method: 'GET', path: listCompanies(i) }),
  },
  {
    name: 'list-all',
    description:
      'GET /rest/companies?limit=60&depth=0, no filter, with the exact totalCount of every live company (maintained live counts), 1 connection',
    compare: 'json',
    connections: 1,
    explain: 1,
    request: () => ({ method: 'GET', path: '/rest/companies?limit=60&depth=0' }),
  },
  {
    name: 'list-indexed',
    description:
      'list with the exact totalCount filtered on a field indexed for filtering, 1 connection: people city[eq]:X (12 cities, 2.7-18 % of rows) and companies employees[gte]:N (28-73 %) in turn',
    compare: 'json',
    connections: 1,
    explain: 2,
    request: (_d, i) => ({
      method: 'GET',
      path:
        i % 2 === 0
          ? `/rest/people?limit=60&depth=0&filter=${q(`city[eq]:"${LIST_CITIES[(i / 2) % LIST_CITIES.length]}"`)}`
          : listCompanies((i - 1) / 2),
    }),
  },
  {
    name: 'list-unindexed',
    description:
      'GET /rest/companies?limit=60&depth=0&filter=idealCustomerProfile[eq]:true (a field without an index, 10 % of rows) with the exact totalCount, 1 connection',
    compare: 'json',
    connections: 1,
    explain: 1,
    request: () => ({
      method: 'GET',
      path: `/rest/companies?limit=60&depth=0&filter=${q('idealCustomerProfile[eq]:true')}`,
    }),
  },
  {
    name: 'list-unindexed-est',
    description:
      'list-unindexed with Prefer: count=estimated (more than COUNT_EXACT_LIMIT match: a count that stops at the limit + 1, then the planner estimate; the baseline counts exactly), 1 connection',
    compare: 'json',
    ignoreKeys: ['totalCount', 'totalCountEstimated'],
    connections: 1,
    request: () => ({
      method: 'GET',
      path: `/rest/companies?limit=60&depth=0&filter=${q('idealCustomerProfile[eq]:true')}`,
      headers: { prefer: 'count=estimated' },
    }),
  },
  {
    name: 'get-d0-role',
    description: 'get-d0 with the key of a role with one grant per collection (the access checks of roles)',
    compare: 'json',
    key: 'role',
    request: (d, i) => ({ method: 'GET', path: `/rest/people/${d.people[i % d.people.length].id}?depth=0` }),
  },
  {
    name: 'list-d0-role',
    description: 'list-d0 with the key of a role with one grant per collection (the access checks of roles)',
    compare: 'json',
    key: 'role',
    request: (_d, i) => ({ method: 'GET', path: listCompanies(i) }),
  },
  {
    name: 'list-nocount',
    description: 'list-d0 with the header Prefer: count=none (no count query; the baseline skips it)',
    compare: 'json',
    ignoreKeys: ['totalCount'],
    request: (_d, i) => ({ method: 'GET', path: listCompanies(i), headers: { prefer: 'count=none' } }),
    peer: (d, i) => ({ method: 'GET', path: peerListCompanies(d, i, 'orderby.id=asc') }),
  },
  {
    name: 'list-created',
    description:
      'list-nocount sorted by createdAt in the default direction (order_by=createdAt: AscNullsFirst): a walk of the ("createdAt", id) index, or a sort of every match',
    compare: 'json',
    ignoreKeys: ['totalCount'],
    explain: 1,
    request: (_d, i) => ({
      method: 'GET',
      path: `${listCompanies(i)}&order_by=createdAt`,
      headers: { prefer: 'count=none' },
    }),
    peer: (d, i) => ({ method: 'GET', path: peerListCompanies(d, i, 'orderby.createdAt=asc&orderby.id=asc') }),
  },
  {
    name: 'list-d1',
    description:
      'GET /rest/people?limit=60&depth=1&filter=city[eq]:"X" (12 cities, 2.7-18 % of rows) with totalCount: 60 people with their company and 8 relations',
    compare: 'json',
    request: (_d, i) => ({
      method: 'GET',
      path: `/rest/people?limit=60&depth=1&filter=${q(`city[eq]:"${LIST_CITIES[i % LIST_CITIES.length]}"`)}`,
    }),
  },
  {
    name: 'list-deep',
    description:
      'GET /rest/companies?limit=60&depth=0&starting_after=<cursor ~page 1000> (20 cursors) with the exact totalCount of all companies',
    compare: 'json',
    request: (d, i, target) => {
      const cursors = d.deepCursors[target === 'service' ? 'service' : 'baseline'];
      return {
        method: 'GET',
        path: `/rest/companies?limit=60&depth=0&starting_after=${q(cursors[i % cursors.length])}`,
      };
    },
  },
  {
    name: 'duplicates',
    description:
      'POST /rest/people/duplicates?depth=0 with 1 record (name + email of a seeded person: ~10 matches by name)',
    compare: 'json',
    request: (d, i) => {
      const p = d.people[(i * 31) % d.people.length];
      const body = {
        data: [{ name: { firstName: p.firstName, lastName: p.lastName }, emails: { primaryEmail: p.email } }],
      };
      return {
        method: 'POST',
        path: '/rest/people/duplicates?depth=0',
        headers: JSON_HEADERS,
        body: JSON.stringify(body),
      };
    },
  },

  {
    name: 'group-by',
    description:
      'GET /rest/opportunities/groupBy?group_by=[{"stage":true}]&aggregate=["sumAmountAmountMicros"]: the 5 stages of all opportunities with their count and sum of amounts, 1 connection',
    compare: 'json',
    connections: 1,
    explain: 1,
    request: () => ({
      method: 'GET',
      path: `/rest/opportunities/groupBy?group_by=${q(GROUP_BY_STAGE)}&aggregate=${q(SUM_OF_AMOUNTS)}`,
    }),
  },
  {
    name: 'list-relation',
    description:
      'GET /rest/people?limit=60&depth=0&filter=company.employees[gt]:N (N rotating 10..1000, through the company of each person) with the exact totalCount, 1 connection',
    compare: 'json',
    connections: 1,
    explain: 2,
    request: (_d, i) => ({
      method: 'GET',
      path: `/rest/people?limit=60&depth=0&filter=${q(`company.employees[gt]:${EMPLOYEE_THRESHOLDS[i % EMPLOYEE_THRESHOLDS.length]}`)}`,
    }),
  },
  {
    name: 'search',
    description:
      'GET /rest/search?query=<two words> (40 queries: a first name + a last-name prefix, or a company name word + a prefix) across the searchable collections, 1 connection',
    compare: 'json',
    connections: 1,
    explain: 2,
    request: (_d, i) => ({ method: 'GET', path: `/rest/search?query=${q(SEARCH_QUERIES[i % SEARCH_QUERIES.length])}` }),
  },

  {
    name: 'create-one',
    description:
      'POST /rest/people?depth=0: one person (unique email) + auditLog, webhook outbox and timeline rows, one statement',
    compare: 'shape',
    recordsPerRequest: 1,
    writes: true,
    request: (d, i, _t, stream) => ({
      method: 'POST',
      path: '/rest/people?depth=0',
      headers: JSON_HEADERS,
      body: JSON.stringify(newPerson(d, i, stream)),
    }),
    // the same person as columns; Platformatic requires every NOT NULL column, defaults or not
    peer: (d, i, stream) => {
      const p = newPerson(d, i, stream);
      const body = {
        nameFirstName: p.name.firstName,
        nameLastName: p.name.lastName,
        emailsPrimaryEmail: p.emails.primaryEmail,
        jobTitle: p.jobTitle,
        city: p.city,
        phonesPrimaryPhoneNumber: p.phones.primaryPhoneNumber,
        phonesPrimaryPhoneCountryCode: p.phones.primaryPhoneCountryCode,
        phonesPrimaryPhoneCallingCode: p.phones.primaryPhoneCallingCode,
        linkedinLinkPrimaryLinkUrl: p.linkedinLink.primaryLinkUrl,
        companyId: p.companyId,
        avatarUrl: '',
        position: 0,
        createdBySource: 'API',
        createdByName: 'benchmark',
      };
      return {
        method: 'POST',
        path: `/person/?fields=${peerData(d).fields.person}`,
        headers: JSON_HEADERS,
        body: JSON.stringify(body),
      };
    },
  },
  {
    name: 'create-many',
    description:
      'POST /rest/batch/companies?depth=0 with 60 companies (unique domains): 60 rows + 60 audit + 60 timeline rows, one statement',
    compare: 'shape',
    recordsPerRequest: 60,
    writes: true,
    request: (d, i, _t, stream) => {
      const records = Array.from({ length: 60 }, (_, k) => {
        const n = i * 60 + k;
        const [city, country] = CITIES[n % CITIES.length];
        return {
          name: `Bench ${LAST_NAMES[n % LAST_NAMES.length]} ${n}`,
          domainName: { primaryLinkUrl: `https://bench-${d.runTag}-${stream}-${n}.example` },
          employees: 1 + (n % 5000),
          address: { addressCity: city, addressCountry: country },
          annualRecurringRevenue: { amountMicros: (1 + (n % 900)) * 1_000_000_000, currencyCode: 'USD' },
          idealCustomerProfile: n % 10 === 0,
        };
      });
      return {
        method: 'POST',
        path: '/rest/batch/companies?depth=0',
        headers: JSON_HEADERS,
        body: JSON.stringify(records),
      };
    },
  },
  {
    name: 'update-one',
    description:
      'PATCH /rest/companies/:id?depth=0 {name, employees} (rotating over 5,000 companies): row lock, update, audit with diff, timeline, one statement',
    compare: 'shape',
    recordsPerRequest: 1,
    writes: true,
    request: (d, i, _t, stream) => ({
      method: 'PATCH',
      path: `/rest/companies/${d.companyIds[(i * 13) % d.companyIds.length]}?depth=0`,
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: `Company ${d.runTag}-${stream}-${i}`, employees: 1 + (i % 20_000) }),
    }),
    // Platformatic's PUT validates a whole record: the company's other NOT NULL columns are sent again, unchanged
    peer: (d, i, stream) => {
      const id = d.companyIds[(i * 13) % d.companyIds.length];
      const body = {
        ...peerData(d).companies.get(id),
        name: `Company ${d.runTag}-${stream}-${i}`,
        employees: 1 + (i % 20_000),
      };
      return {
        method: 'PUT',
        path: `/company/${id}?fields=${peerData(d).fields.company}`,
        headers: JSON_HEADERS,
        body: JSON.stringify(body),
      };
    },
  },
  {
    name: 'update-many-1k',
    description:
      'PATCH /rest/people?filter=position[gte]:N,position[lt]:N+1000&depth=0 {jobTitle, city}, 2 connections: one statement locks, copies and updates the 1,000 rows and writes their 1,000 audit + timeline rows',
    compare: 'shape',
    recordsPerRequest: 1000,
    writes: true,
    changesSeed: true,
    connections: 2,
    request: updateMany(1000),
  },
  {
    name: 'update-many-10k',
    description:
      'PATCH /rest/people?filter=position[gte]:N,position[lt]:N+10000&depth=0 {jobTitle, city}, 1 connection: the same with 10,000 rows (BULK_MAX)',
    compare: 'shape',
    recordsPerRequest: 10_000,
    writes: true,
    changesSeed: true,
    connections: 1,
    request: updateMany(10_000),
  },
  {
    name: 'upsert-many-200',
    description:
      'POST /rest/batch/people?upsert=true&depth=0, 200 items: 100 seeded people matched by emails.primaryEmail (jobTitle patched) and 100 new: advisory locks, one locking select, one insert, one patch, one events statement',
    compare: 'shape',
    recordsPerRequest: 200,
    writes: true,
    changesSeed: true,
    request: (d, i, _t, stream) => {
      const jobTitle = `Bench ${d.runTag}-${stream}-${i}`;
      // consecutive requests patch disjoint blocks of the 5,000 sampled people
      const blocks = Math.max(1, Math.floor(d.people.length / UPSERT_EXISTING));
      const first = (i % blocks) * UPSERT_EXISTING;
      const items = Array.from({ length: 2 * UPSERT_EXISTING }, (_, k) => {
        if (k % 2 === 0)
          return { emails: { primaryEmail: d.people[(first + k / 2) % d.people.length].email }, jobTitle };
        const firstName = FIRST_NAMES[(i + k) % FIRST_NAMES.length];
        const lastName = LAST_NAMES[(i * 7 + k) % LAST_NAMES.length];
        return {
          name: { firstName, lastName },
          emails: { primaryEmail: `upsert.${d.runTag}.${stream}.${i}.${k}@bench-run.example`.toLowerCase() },
          jobTitle,
        };
      });
      return {
        method: 'POST',
        path: '/rest/batch/people?upsert=true&depth=0',
        headers: JSON_HEADERS,
        body: JSON.stringify(items),
      };
    },
  },
];

export function selectScenarios(names: string[] | undefined): Scenario[] {
  if (!names || names.length === 0) return SCENARIOS;
  const unknown = names.filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length)
    throw new Error(`unknown scenario(s) ${unknown.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);
  return SCENARIOS.filter((s) => names.includes(s.name));
}

/* ------------------------------------------------------------------ pre-check comparison */

const CURSOR_KEYS = new Set(['startCursor', 'endCursor']);

/** The JSON with cursors masked (each side signs its own) and, for `shape`, every leaf replaced by its type. */
function normalize(value: unknown, mode: 'json' | 'shape', key?: string): unknown {
  if (key && CURSOR_KEYS.has(key)) return value === null ? null : '<cursor>';
  if (Array.isArray(value)) {
    const items = value.map((v) => normalize(v, mode));
    return mode === 'shape' ? items.slice(0, 1) : items;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) out[k] = normalize((value as Record<string, unknown>)[k], mode, k);
    return out;
  }
  if (mode === 'shape') return value === null ? 'null' : typeof value;
  return value;
}

/** The first path where two answers differ, or undefined when they agree. */
export function firstDifference(
  service: unknown,
  baseline: unknown,
  mode: 'json' | 'shape',
  ignoreKeys: string[] = [],
): string | undefined {
  const strip = (v: unknown) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
    const copy = { ...(v as Record<string, unknown>) };
    for (const k of ignoreKeys) delete copy[k];
    return copy;
  };
  const walk = (a: unknown, b: unknown, path: string): string | undefined => {
    if (a === b) return undefined;
    if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
      return `${path || '(root)'}: service ${JSON.stringify(a)?.slice(0, 120)} vs baseline ${JSON.stringify(b)?.slice(0, 120)}`;
    }
    if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) {
      const d = walk(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        Array.isArray(a) ? `${path}[${k}]` : `${path}.${k}`,
      );
      if (d) return d;
    }
    return undefined;
  };
  return walk(normalize(strip(service), mode), normalize(strip(baseline), mode), '');
}
