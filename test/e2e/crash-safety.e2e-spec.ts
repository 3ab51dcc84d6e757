import { Client } from 'pg';
import {
  ChildServer,
  createApiKeyWithCli,
  freePort,
  killAllChildren,
  serverEnv,
  seededRandom,
} from '../support/child-server';
import { postgresForSuite } from '../support/embedded-postgres';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import type { Json } from '../support/http';

/**
 * Crash safety: the server is killed with SIGKILL at a random moment while 16 clients create
 * records (one at a time and in batches), three times over. After each restart every write the
 * server acknowledged (2xx) must be there with exactly the values of its response, and every
 * batch must be all there or not at all, acknowledged or not. PostgreSQL only (TEST_DATABASE_URL,
 * or a server of its own when unset): the embedded database lives in one process and has no crash
 * to survive here.
 *
 * The seed is printed; CRASH_SEED=<n> replays the same kill moments and request mix.
 */
const postgres = postgresForSuite('crash-safety');

const CYCLES = 3;
const LOOPS = 16;

interface Single {
  plural: 'people' | 'companies';
  marker: string;
  /** The record of the 2xx response, when there was one. */
  record?: Json;
}

interface Batch {
  marker: string;
  size: number;
  records?: Json[];
}

interface CycleStats {
  cycle: number;
  killAfterMs: number;
  sent: number;
  acknowledgedSingles: number;
  acknowledgedBatches: number;
  acknowledgedRecords: number;
  failed: number;
  inFlightAtKill: number;
  otherStatuses: Record<string, number>;
}

postgres.describe('crash safety: SIGKILL under write load loses no acknowledged write and tears no batch', () => {
  let database: TestDatabase;
  let pg: Client;
  let token: string;
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000_007);
  const random = seededRandom(seed);
  /** Drawn first, so the kill moments replay exactly with the seed (the request mix depends on timing too). */
  const killAfter = Array.from({ length: CYCLES }, () => 300 + Math.floor(random() * 1201));
  const singles: Single[] = [];
  const batches: Batch[] = [];

  beforeAll(async () => {
    await postgres.beforeAll();
    database = await createTestDatabase();
    token = await createApiKeyWithCli(database.url!, 'crash-safety'); // also applies the migrations
    pg = new Client({ connectionString: database.url });
    await pg.connect();
  });

  afterAll(async () => {
    await killAllChildren();
    await pg?.end().catch(() => undefined);
    await database?.drop();
    await postgres.afterAll();
  });

  const headers = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
  type Int = (min: number, max: number) => number;
  const intOf =
    (rnd: () => number): Int =>
    (min, max) =>
      min + Math.floor(rnd() * (max - min + 1));

  function singleBody(plural: Single['plural'], marker: string, int: Int, random: () => number): Json {
    if (plural === 'people') {
      return {
        name: { firstName: marker, lastName: `Last ${int(0, 1e6)}` },
        emails: {
          primaryEmail: `${marker.toLowerCase()}@crash.example.com`,
          additionalEmails: [`x-${marker.toLowerCase()}@crash.example.com`],
        },
        jobTitle: `job ${int(0, 1e9)}`,
        city: `city-${marker}`,
        phones: {
          primaryPhoneNumber: String(int(1_000_000, 9_999_999)),
          primaryPhoneCountryCode: 'FR',
          primaryPhoneCallingCode: '+33',
          additionalPhones: [],
        },
      };
    }
    return {
      name: marker,
      employees: int(1, 100_000),
      idealCustomerProfile: random() < 0.5,
      domainName: {
        primaryLinkUrl: `https://${marker.toLowerCase()}.example.com`,
        primaryLinkLabel: marker,
        secondaryLinks: [],
      },
      address: {
        addressCity: `city-${marker}`,
        addressStreet1: `${int(1, 999)} Main St`,
        addressPostcode: String(int(10000, 99999)),
      },
      annualRecurringRevenue: { amountMicros: int(1, 1_000_000) * 1_000_000, currencyCode: 'EUR' },
    };
  }

  function batchBody(marker: string, size: number): Json[] {
    return Array.from({ length: size }, (_, k) => ({
      name: `${marker}#${k}`,
      employees: k + 1,
      domainName: { primaryLinkUrl: `https://${marker.toLowerCase()}-${k}.example.com` },
      address: { addressCity: `batch-${marker}` },
    }));
  }

  /** One cycle of load: 16 loops of creates until the kill; returns what happened. */
  async function load(server: ChildServer, cycle: number): Promise<CycleStats> {
    const killAfterMs = killAfter[cycle];
    const stats: CycleStats = {
      cycle,
      killAfterMs,
      sent: 0,
      acknowledgedSingles: 0,
      acknowledgedBatches: 0,
      acknowledgedRecords: 0,
      failed: 0,
      inFlightAtKill: 0,
      otherStatuses: {},
    };
    let inFlight = 0;
    let killed = false;
    const loop = async (l: number) => {
      const random = seededRandom(seed * 97 + cycle * 1009 + l); // one sequence per loop
      const int = intOf(random);
      for (let i = 0; !killed; i++) {
        const marker = `S${seed}C${cycle}L${l}R${i}`;
        const kind = random();
        let send: () => Promise<void>;
        if (kind < 0.3) {
          const size = int(5, 20);
          const batch: Batch = { marker: `B${seed}C${cycle}L${l}R${i}`, size };
          batches.push(batch);
          send = async () => {
            const res = await fetch(`${server.baseUrl}/batch/companies?depth=0`, {
              method: 'POST',
              headers: headers(),
              body: JSON.stringify(batchBody(batch.marker, size)),
            });
            const body = (await res.json()) as Json;
            if (res.status === 201) {
              batch.records = body.data.createCompanies;
              stats.acknowledgedBatches += 1;
              stats.acknowledgedRecords += size;
            } else stats.otherStatuses[res.status] = (stats.otherStatuses[res.status] ?? 0) + 1;
          };
        } else {
          const plural: Single['plural'] = kind < 0.65 ? 'people' : 'companies';
          const single: Single = { plural, marker };
          singles.push(single);
          send = async () => {
            const res = await fetch(`${server.baseUrl}/${plural}?depth=0`, {
              method: 'POST',
              headers: headers(),
              body: JSON.stringify(singleBody(plural, marker, int, random)),
            });
            const body = (await res.json()) as Json;
            if (res.status === 201) {
              single.record = body.data[plural === 'people' ? 'createPerson' : 'createCompany'];
              stats.acknowledgedSingles += 1;
              stats.acknowledgedRecords += 1;
            } else stats.otherStatuses[res.status] = (stats.otherStatuses[res.status] ?? 0) + 1;
          };
        }
        stats.sent += 1;
        inFlight += 1;
        try {
          await send();
        } catch {
          stats.failed += 1; // connection lost (the kill) or refused: not acknowledged
        } finally {
          inFlight -= 1;
        }
      }
    };
    const loops = Array.from({ length: LOOPS }, (_, l) => loop(l));
    await new Promise((resolve) => setTimeout(resolve, killAfterMs));
    killed = true;
    stats.inFlightAtKill = inFlight;
    server.process.kill('SIGKILL');
    await Promise.all(loops);
    await server.exited;
    return stats;
  }

  /** Every acknowledged record, read back through the API, equals its 2xx response; no batch is torn. */
  async function verify(
    server: ChildServer,
    quiet = false,
  ): Promise<{ lost: number; changed: number; torn: number; duplicated: number }> {
    const result = { lost: 0, changed: 0, torn: 0, duplicated: 0 };
    const problems: string[] = [];
    const acknowledged: { plural: string; record: Json }[] = [
      ...singles.filter((s) => s.record).map((s) => ({ plural: s.plural, record: s.record! })),
      ...batches.filter((b) => b.records).flatMap((b) => b.records!.map((record) => ({ plural: 'companies', record }))),
    ];
    // every acknowledged record, 100 at a time through list filters
    for (const plural of ['people', 'companies']) {
      const expected = acknowledged.filter((a) => a.plural === plural).map((a) => a.record);
      for (let i = 0; i < expected.length; i += 100) {
        const chunk = expected.slice(i, i + 100);
        const filter = encodeURIComponent(`id[in]:[${chunk.map((r) => r.id).join(',')}]`);
        const res = await fetch(`${server.baseUrl}/${plural}?depth=0&limit=200&filter=${filter}`, {
          headers: headers(),
        });
        expect(res.status).toBe(200);
        const found = new Map(((await res.json()) as Json).data[plural].map((r: Json) => [r.id, r]));
        for (const record of chunk) {
          const stored = found.get(record.id);
          if (!stored) {
            result.lost += 1;
            problems.push(`lost: ${plural} ${record.id}`);
          } else if (JSON.stringify(sortKeys(stored)) !== JSON.stringify(sortKeys(record))) {
            result.changed += 1;
            problems.push(
              `changed: ${plural} ${record.id}\n  acknowledged ${JSON.stringify(sortKeys(record))}\n  stored       ${JSON.stringify(sortKeys(stored))}`,
            );
          }
        }
      }
    }
    // and one by one (GET /<collection>/<id>) for every acknowledged single and one record of each batch
    const spot = [
      ...singles.filter((s) => s.record).map((s) => ({ plural: s.plural as string, record: s.record! })),
      ...batches
        .filter((b) => b.records)
        .map((b) => ({ plural: 'companies', record: b.records![Math.floor(random() * b.size)] })),
    ];
    const singular = (plural: string) => (plural === 'people' ? 'person' : 'company');
    for (let i = 0; i < spot.length; i += 32) {
      await Promise.all(
        spot.slice(i, i + 32).map(async ({ plural, record }) => {
          const res = await fetch(`${server.baseUrl}/${plural}/${record.id}?depth=0`, { headers: headers() });
          if (res.status !== 200) {
            result.lost += 1;
            problems.push(`GET ${plural}/${record.id} -> ${res.status}`);
            return;
          }
          const stored = ((await res.json()) as Json).data[singular(plural)];
          if (JSON.stringify(sortKeys(stored)) !== JSON.stringify(sortKeys(record))) {
            result.changed += 1;
            problems.push(`changed (get one): ${plural} ${record.id}`);
          }
        }),
      );
    }
    // every batch sent, acknowledged or not: 0 or all of its records (read in the database itself)
    const batchRows = await pg.query<{ marker: string; n: number }>(
      `SELECT split_part(name, '#', 1) AS marker, count(*)::int AS n FROM company WHERE name LIKE $1 GROUP BY 1`,
      [`B${seed}C%`],
    );
    const stored = new Map(batchRows.rows.map((r) => [r.marker, r.n]));
    for (const batch of batches) {
      const n = stored.get(batch.marker) ?? 0;
      if (n !== 0 && n !== batch.size) {
        result.torn += 1;
        problems.push(`torn batch ${batch.marker}: ${n} of ${batch.size}`);
      }
      if (batch.records && n !== batch.size)
        problems.push(`acknowledged batch ${batch.marker} has ${n} of ${batch.size}`);
    }
    // every single sent, acknowledged or not: at most one record
    const people = await pg.query<{ marker: string; n: number }>(
      `SELECT "nameFirstName" AS marker, count(*)::int AS n FROM person WHERE "nameFirstName" LIKE $1 GROUP BY 1`,
      [`S${seed}C%`],
    );
    const companies = await pg.query<{ marker: string; n: number }>(
      `SELECT name AS marker, count(*)::int AS n FROM company WHERE name LIKE $1 GROUP BY 1`,
      [`S${seed}C%`],
    );
    for (const row of [...people.rows, ...companies.rows]) {
      if (row.n > 1) {
        result.duplicated += 1;
        problems.push(`single ${row.marker} stored ${row.n} times`);
      }
    }
    if (problems.length > 0 && !quiet) {
      console.log(`crash safety (seed ${seed}): ${problems.length} problems\n${problems.slice(0, 20).join('\n')}`);
    }
    return result;
  }

  it('keeps every acknowledged record with the values it was acknowledged with, across three SIGKILLs', async () => {
    const started = Date.now();

    console.log(`crash safety: seed ${seed} (replay with CRASH_SEED=${seed})`);
    const env = async () => serverEnv(database.url!, await freePort());
    const all: CycleStats[] = [];
    let server = await ChildServer.start(await env());
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      if (cycle > 0) {
        server = await ChildServer.start(await env());
        const checked = await verify(server);
        expect(checked).toEqual({ lost: 0, changed: 0, torn: 0, duplicated: 0 });
      }
      const stats = await load(server, cycle);
      all.push(stats);

      console.log(
        `crash safety cycle ${cycle + 1}: SIGKILL after ${stats.killAfterMs} ms; ${stats.sent} requests, ` +
          `acknowledged ${stats.acknowledgedSingles} singles + ${stats.acknowledgedBatches} batches (${stats.acknowledgedRecords} records), ` +
          `${stats.inFlightAtKill} in flight at the kill, ${stats.failed} failed` +
          (Object.keys(stats.otherStatuses).length ? `, other statuses ${JSON.stringify(stats.otherStatuses)}` : ''),
      );
    }
    server = await ChildServer.start(await env());
    const final = await verify(server);
    const sum = (key: keyof CycleStats) => all.reduce((n, s) => n + (s[key] as number), 0);
    const sentBatches = batches.length;

    console.log(
      `crash safety total (seed ${seed}, ${Date.now() - started} ms): ${CYCLES} kills; acknowledged ${sum('acknowledgedSingles')} singles, ` +
        `${sum('acknowledgedBatches')} batches (of ${sentBatches} sent), ${sum('acknowledgedRecords')} records; ` +
        `${sum('inFlightAtKill')} in flight at the kills; lost=${final.lost} changed=${final.changed} torn=${final.torn} duplicated=${final.duplicated}`,
    );
    // the load was real: writes were acknowledged and some were cut by each kill
    expect(sum('acknowledgedSingles')).toBeGreaterThan(0);
    expect(sum('acknowledgedBatches')).toBeGreaterThan(0);
    for (const stats of all) {
      expect(stats.inFlightAtKill).toBeGreaterThan(0);
      expect(stats.otherStatuses).toEqual({}); // no 4xx/5xx while the server was up
    }
    expect(final).toEqual({ lost: 0, changed: 0, torn: 0, duplicated: 0 });

    // the checker itself can fail: lose one acknowledged record, change another, tear a batch
    const [lose, change] = singles.filter((s) => s.record);
    const table = (single: Single) => (single.plural === 'people' ? 'person' : 'company');
    const torn = batches.find((b) => b.records)!;
    await pg.query(`DELETE FROM ${table(lose)} WHERE id = $1`, [lose.record!.id]);
    await pg.query(`UPDATE ${table(change)} SET "updatedAt" = "updatedAt" - interval '1 second' WHERE id = $1`, [
      change.record!.id,
    ]);
    await pg.query('DELETE FROM company WHERE id = $1', [torn.records![0].id]);
    const tampered = await verify(server, true);
    await server.kill();
    // each seen by the list and by GET one (which reads one random record of each batch)
    expect(tampered).toEqual({ lost: expect.any(Number), changed: 2, torn: 1, duplicated: 0 });
    expect(tampered.lost).toBeGreaterThanOrEqual(3);
  }, 240_000); // about 35 s on an idle machine: four server starts, three loads, the checks
});

/** A copy with object keys in a stable order, for exact comparison. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}
