/**
 * npm run bench [-- flags]: the HTTP benchmark of the service against a minimal baseline server.
 *
 *   1. builds the service (npm run build), creates the database when missing, applies the
 *      migrations (node dist/src/cli/migrate.js), seeds companies, people and opportunities when their count is
 *      not --rows, creates an API key;
 *   2. starts the service once per HTTP adapter (HTTP_ADAPTER=express|fastify) and the baseline
 *      (bench/baseline-server.ts), as child processes;
 *   3. per round, per scenario, per target (alternating the order every round): a warm-up in
 *      which every response must be 2xx, then a measured autocannon run while the target's RSS is
 *      sampled; after each run of a write scenario, the rows it created are removed (and the
 *      tables vacuumed), so every target writes into the same tables;
 *   4. the keyset comparison (first page vs a deep page, sequential requests);
 *   5. the SQL's own time of the scenarios that ask for it: their statements, captured from one
 *      more service process connected through a recording proxy, run under EXPLAIN ANALYZE;
 *   6. prints the table (text and Markdown) and writes everything to bench/results/<timestamp>.json.
 * See bench/README.md for the scenarios, the flags and how to read the ratio.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from 'pg';
import autocannon, { AutocannonInstance } from './lib/autocannon';
import { encodeBaselineCursor } from './lib/baseline-cursor';
import {
  connect,
  createBenchKey,
  databaseName,
  ensureDatabase,
  removeRunLeftovers,
  restoreSeededPeople,
  seed,
  seededCounts,
  seedOpportunities,
  vacuumSeeded,
} from './lib/database';
import {
  Child,
  cpuSeconds,
  cpuSince,
  freePort,
  postgresCpu,
  killAllNow,
  sampleRss,
  startChild,
  stopAll,
  stopChild,
  waitReady,
} from './lib/processes';
import { markdownTable, median, RunResult, summarize, textTable } from './lib/report';
import {
  firstDifference,
  HttpRequest,
  PeerData,
  Scenario,
  ScenarioData,
  selectScenarios,
  TargetKind,
} from './lib/scenarios';
import { explainCaptured, explainConnection, explainReport, ExplainResult } from './lib/explain';
import {
  ensurePlatformatic,
  PEERS,
  PeerName,
  PLATFORMATIC_SECRET_HEADER,
  PLATFORMATIC_VERSION,
  platformaticConfig,
} from './lib/peers';
import { compareStatements, SqlCapture } from './lib/sql-capture';
import { COLLECTION_DEFINITIONS } from '../src/collections';

const ROOT = resolve(__dirname, '..');
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/crm_bench';
/** Fixed, so cursors and encrypted values stay valid across runs (a benchmark key, never a real one). */
const ENCRYPTION_KEY = Buffer.alloc(32, 0x42).toString('base64');
const ADAPTERS = ['express', 'fastify'] as const;

const USAGE = `npm run bench -- [flags]
  --rows N              companies, people and opportunities to seed (default 100000; 1000000 for the scale run)
  --duration S          measured seconds per run (default 10)
  --warmup S            warm-up seconds before each run, every response must be 2xx (default 3)
  --rounds N            rounds; the table shows medians (default 2)
  --connections N       concurrent connections (default 32; update many runs with 1-2 whatever this says)
  --scenarios a,b       only these scenarios (default all: see bench/README.md)
  --adapters a,b        service HTTP adapters (default express,fastify)
  --database-url URL    PostgreSQL database (default $BENCH_DATABASE_URL or ${DEFAULT_DATABASE_URL})
  --skip-build          use the existing dist/ (default: npm run build first)
  --keyset-samples N    sequential requests per keyset measurement, 0 to skip (default 30)
  --service-dir DIR     the service checkout to build and run (default: this repository)
  --env KEY=VALUE       extra environment of the service (repeatable), e.g. --env COUNT_CACHE=on
  --rate N              send N requests per second in all (autocannon's overallRate) instead of as
                        many as the target answers: CPU ms/req and latency then compare targets at the
                        same load (below saturation they vary less than req/s on a shared machine)
  --together            load the service targets at the same time (the connections each, the baseline
                        alone after them): they share the machine's state, so their CPU ms/req and
                        req/s compare at the same moment (with --variant: one setting against another)
  --variant NAME:K=V,.. one more service target per adapter, named <adapter>+NAME, with this extra
                        environment (repeatable): measured in the same rounds as the others, so two
                        settings are compared under the same machine load, e.g. --variant nometrics:METRICS_PORT=0
  --cpu-prof            run every target under node --cpu-prof: one .cpuprofile per target in the
                        run's logs directory (bench/profile-top.ts summarizes one)
  --sql-check           no load: send each scenario once to every target through a recording proxy
                        and compare the SQL the service sent with the baseline's (exit 1 if different)
  --peers a,b           other products as more targets, on the same tables, for a second ratio:
                        platformatic (Platformatic DB ${PLATFORMATIC_VERSION}, installed on demand outside the repository)
Quick iteration: npm run bench -- --duration 3 --warmup 1 --rounds 1`;

interface Options {
  rows: number;
  duration: number;
  warmup: number;
  rounds: number;
  connections: number;
  /** Requests per second in all (`--rate`), or as fast as the target answers. */
  rate?: number;
  /** Service targets loaded at the same time (`--together`). */
  together: boolean;
  scenarios: Scenario[];
  adapters: string[];
  databaseUrl: string;
  skipBuild: boolean;
  keysetSamples: number;
  serviceDir: string;
  serviceEnv: Record<string, string>;
  /** More service targets: the same adapters with extra environment (`--variant`). */
  variants: { name: string; env: Record<string, string> }[];
  sqlCheck: boolean;
  cpuProf: boolean;
  peers: PeerName[];
}

function parseOptions(): Options {
  const { values } = parseArgs({
    options: {
      rows: { type: 'string', default: '100000' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      rounds: { type: 'string', default: '2' },
      connections: { type: 'string', default: '32' },
      rate: { type: 'string' },
      together: { type: 'boolean', default: false },
      scenarios: { type: 'string' },
      adapters: { type: 'string', default: ADAPTERS.join(',') },
      'database-url': { type: 'string' },
      'skip-build': { type: 'boolean', default: false },
      'keyset-samples': { type: 'string', default: '30' },
      'service-dir': { type: 'string' },
      env: { type: 'string', multiple: true },
      variant: { type: 'string', multiple: true },
      'sql-check': { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      peers: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const int = (name: string, raw: string, min: number) => {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min} (got '${raw}')`);
    return n;
  };
  const list = (raw: string | undefined) =>
    raw
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const adapters = list(values.adapters) ?? [];
  const unknown = adapters.filter((a) => !(ADAPTERS as readonly string[]).includes(a));
  if (unknown.length) throw new Error(`--adapters: unknown ${unknown.join(', ')} (known: ${ADAPTERS.join(', ')})`);
  const peers = list(values.peers) ?? [];
  const unknownPeers = peers.filter((p) => !(PEERS as readonly string[]).includes(p));
  if (unknownPeers.length) throw new Error(`--peers: unknown ${unknownPeers.join(', ')} (known: ${PEERS.join(', ')})`);
  return {
    rows: int('rows', values.rows!, 1000),
    duration: int('duration', values.duration!, 1),
    warmup: int('warmup', values.warmup!, 1),
    rounds: int('rounds', values.rounds!, 1),
    connections: int('connections', values.connections!, 1),
    together: values.together!,
    rate: values.rate === undefined ? undefined : int('rate', values.rate, 1),
    scenarios: selectScenarios(list(values.scenarios)),
    adapters,
    databaseUrl: values['database-url'] ?? process.env.BENCH_DATABASE_URL ?? DEFAULT_DATABASE_URL,
    skipBuild: values['skip-build']!,
    keysetSamples: int('keyset-samples', values['keyset-samples']!, 0),
    serviceDir: resolve(values['service-dir'] ?? ROOT),
    sqlCheck: values['sql-check']!,
    cpuProf: values['cpu-prof']!,
    peers: peers as PeerName[],
    serviceEnv: environment('--env', values.env ?? []),
    variants: (values.variant ?? []).map((raw) => {
      const colon = raw.indexOf(':');
      const name = raw.slice(0, colon);
      if (colon < 1 || !/^[a-z0-9-]+$/.test(name))
        throw new Error(`--variant expects NAME:KEY=VALUE[,KEY=VALUE] with NAME in a-z, 0-9, - (got '${raw}')`);
      return { name, env: environment('--variant', raw.slice(colon + 1).split(',')) };
    }),
  };
}

function environment(flag: string, pairs: string[]): Record<string, string> {
  return Object.fromEntries(
    pairs.map((pair) => {
      const at = pair.indexOf('=');
      if (at < 1) throw new Error(`${flag} expects KEY=VALUE (got '${pair}')`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

const log = (message: string) => process.stderr.write(`${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs a command to completion, its output on our stderr; throws on a non-zero exit. */
function runCommand(command: string, args: string[], cwd: string, env?: Record<string, string>): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    const base: Record<string, string> = {};
    for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG']) if (process.env[key]) base[key] = process.env[key]!;
    const child = spawn(command, args, { cwd, env: env ? { ...base, ...env } : process.env, stdio: ['ignore', 2, 2] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`)),
    );
  });
}

/** Whether the built service reads HTTP_ADAPTER at all (otherwise "fastify" would silently be Express). */
function buildReadsHttpAdapter(distDir: string): boolean {
  const walk = (dir: string): boolean =>
    readdirSync(dir).some((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return walk(path);
      return name.endsWith('.js') && readFileSync(path, 'utf8').includes('HTTP_ADAPTER');
    });
  return existsSync(distDir) && walk(distDir);
}

interface Target {
  name: string;
  kind: TargetKind;
  url: string;
  child?: Child;
  capture?: SqlCapture;
  status: 'ok' | 'did not start';
  note?: string;
  /** Headers of every request to this target (a peer's own authentication). */
  headers?: Record<string, string>;
}

/** The i-th request of `scenario` for `target`: the service's and the baseline's, or the peer's equivalent. */
function requestFor(scenario: Scenario, data: ScenarioData, i: number, target: Target, stream: string): HttpRequest {
  if (target.kind !== 'peer') return scenario.request(data, i, target.kind, stream);
  if (!scenario.peer) throw new Error(`${scenario.name} has no request for ${target.name}`);
  return scenario.peer(data, i, stream);
}

/** Whether `target` runs `scenario` (a peer only the scenarios it has an equivalent request for). */
const serves = (target: Target, scenario: Scenario) => target.kind !== 'peer' || scenario.peer !== undefined;

let currentRun: AutocannonInstance | undefined;
let interrupted = false;

async function sendOnce(target: Target, token: string, request: HttpRequest) {
  const response = await fetch(target.url + request.path, {
    method: request.method,
    headers: { authorization: `Bearer ${token}`, ...target.headers, ...request.headers },
    body: request.body,
    signal: AbortSignal.timeout(120_000), // an update many of 10,000 records on a busy machine
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, text, json, headers: response.headers };
}

/** One autocannon run of `scenario` against `target`; with `check`, every response must be 2xx. */
async function load(
  target: Target,
  token: string,
  scenario: Scenario,
  data: ScenarioData,
  options: { duration: number; connections: number; rate?: number; stream: string; offset: number; check: boolean },
) {
  let i = options.offset;
  let failures = 0;
  let firstFailure: string | undefined;
  const instance = autocannon({
    url: target.url,
    connections: options.connections,
    duration: options.duration,
    ...(options.rate ? { overallRate: options.rate } : {}),
    timeout: 30,
    headers: { authorization: `Bearer ${token}`, ...target.headers },
    requests: [
      {
        setupRequest: (request) => {
          const next = requestFor(scenario, data, i++, target, options.stream);
          return {
            ...request,
            method: next.method,
            path: next.path,
            headers: { ...(request.headers as Record<string, string>), ...next.headers },
            body: next.body,
          };
        },
        ...(options.check
          ? {
              onResponse: (status: number, body: string) => {
                if (status >= 200 && status < 300) return;
                failures++;
                firstFailure ??= `HTTP ${status}: ${String(body).slice(0, 2000)}`;
              },
            }
          : {}),
      },
    ],
  });
  currentRun = instance;
  const result = await instance;
  currentRun = undefined;
  return { result, failures, firstFailure };
}

async function main(): Promise<void> {
  const options = parseOptions();
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const resultsDir = join(ROOT, 'bench', 'results');
  const logsDir = join(resultsDir, `${stamp}-logs`);
  mkdirSync(logsDir, { recursive: true });
  const { serviceDir } = options;
  const loadAtStart = loadavg().map((v) => Math.round(v * 100) / 100);
  if (loadAtStart[0] > cpus().length) {
    log(
      `WARNING the machine looks busy (load average ${loadAtStart.join(', ')} on ${cpus().length} cores): numbers may be skewed`,
    );
  }

  // 1. build, database, migrations, seed, API key
  if (!options.skipBuild) {
    log(`building the service (npm run build in ${serviceDir})...`);
    await runCommand('npm', ['run', 'build'], serviceDir);
  }
  const mainJs = join(serviceDir, 'dist', 'src', 'main.js');
  if (!existsSync(mainJs)) throw new Error(`${mainJs} is missing: run npm run build (or drop --skip-build)`);
  const readsAdapter = buildReadsHttpAdapter(join(serviceDir, 'dist', 'src'));

  const url = options.databaseUrl;
  // PostgreSQL's CPU per request is read from /proc: only when the server runs on this machine
  const localDatabase = ['127.0.0.1', 'localhost', '::1', '[::1]', ''].includes(new URL(url).hostname);
  if (await ensureDatabase(url)) log(`created database ${databaseName(url)}`);
  log('applying migrations...');
  await runCommand(process.execPath, [join('dist', 'src', 'cli', 'migrate.js')], serviceDir, { DATABASE_URL: url });
  const db = await connect(url);
  try {
    const counts = await seededCounts(db);
    if (counts.companies !== options.rows || counts.people !== options.rows) {
      log(
        `seeded rows: ${counts.companies} companies, ${counts.people} people; seeding ${options.rows} of each (and opportunities)`,
      );
      await seed(db, options.rows);
    } else if (counts.opportunities !== options.rows) {
      log(`seeded rows: ${counts.opportunities} opportunities; seeding ${options.rows}`);
      await seedOpportunities(db, options.rows);
    } else {
      log(`reusing the seeded ${options.rows.toLocaleString('en-US')} companies, people and opportunities`);
    }
    await removeRunLeftovers(db, { keys: true });
    await vacuumSeeded(db);
    const admin = await createBenchKey(db);
    // a role with one grant per collection (admin-only ones excepted), for the scenarios marked key: 'role'
    const roleKey = await createBenchKey(
      db,
      COLLECTION_DEFINITIONS.filter((d) => !d.adminOnly).map((d) => ({
        collection: d.plural,
        actions: ['read', 'create', 'update', 'delete'],
      })),
    );
    const tokenOf = (scenario: Scenario) => (scenario.key === 'role' ? roleKey.token : admin.token);
    const key = admin;
    const data = await prepareData(db, options.rows);
    if (options.peers.length && !options.sqlCheck) data.peer = await preparePeerData(db, data.companyIds);

    // 2. targets
    const cursorKey = randomBytes(32);
    const targets = await startTargets(options, { url, mainJs, readsAdapter, logsDir, cursorKey });
    if (options.sqlCheck) {
      const differences = await sqlCheck(
        db,
        targets,
        key.token,
        data,
        options,
        cursorKey,
        join(resultsDir, `${stamp}-sql.json`),
      );
      process.exitCode = differences > 0 ? 1 : 0;
      return;
    }
    const live = targets.filter((t) => t.status === 'ok');
    const services = live.filter((t) => t.kind === 'service');

    // deep cursors: the service's from the service itself, the baseline's in its own format
    data.deepCursors.baseline = data.deepIds.map((id) => encodeBaselineCursor(cursorKey, id));
    if (services.length)
      data.deepCursors.service = await serviceCursors(services[0], key.token, 'companies', data.deepIds);

    // 3. pre-check: one request per scenario and target, 2xx, and the service's answer against the baseline's
    const notes: string[] = [];
    const checks: Record<string, unknown> = {};
    for (const scenario of options.scenarios) {
      const answers = new Map<string, unknown>();
      for (const target of live) {
        if (!serves(target, scenario)) continue;
        const answer = await sendOnce(
          target,
          tokenOf(scenario),
          requestFor(scenario, data, 0, target, `check-${target.name}`),
        );
        if (answer.status < 200 || answer.status >= 300) {
          throw new Error(
            `pre-check: ${scenario.name} on ${target.name} answered HTTP ${answer.status}:\n${answer.text.slice(0, 2000)}`,
          );
        }
        answers.set(target.name, answer.json);
        if (scenario.name === 'list-nocount' && target.kind === 'service') {
          const body = answer.json as Record<string, unknown>;
          const honoured =
            !('totalCount' in body) || body.totalCount === null || answer.headers.get('preference-applied') !== null;
          checks[`${scenario.name}:${target.name}:countNoneHonoured`] = honoured;
          if (!honoured)
            notes.push(
              `${scenario.name}: ${target.name} ignored Prefer: count=none (it still returned totalCount ${String(body.totalCount)})`,
            );
        }
      }
      // the next scenario (and the reads of round 1) must not see these writes: a bulk filter
      // would match the records created here
      if (scenario.writes) await cleanAfterWrites(db, options, scenario);
      for (const service of services) {
        const difference = firstDifference(
          answers.get(service.name),
          answers.get('baseline'),
          scenario.compare,
          scenario.ignoreKeys,
        );
        checks[`${scenario.name}:${service.name}`] = difference ?? 'same';
        if (difference) notes.push(`${scenario.name}: ${service.name} and baseline answers differ at ${difference}`);
      }
    }
    for (const note of notes) log(`WARNING ${note}`);

    // 4. rounds
    const runs: RunResult[] = [];
    const reads = options.scenarios.filter((s) => !s.writes);
    const writes = options.scenarios.filter((s) => s.writes);
    const total = options.rounds * options.scenarios.reduce((n, s) => n + live.filter((t) => serves(t, s)).length, 0);
    let done = 0;
    for (let round = 1; round <= options.rounds; round++) {
      for (const scenario of [...reads, ...writes]) {
        const order = (round % 2 === 1 ? live : [...live].reverse()).filter((t) => serves(t, scenario));
        // --together: the services share their runs (one group), the baseline and peers run alone
        const groups = options.together
          ? [order.filter((t) => t.kind === 'service'), ...order.filter((t) => t.kind !== 'service').map((t) => [t])]
          : order.map((t) => [t]);
        for (const group of groups.filter((g) => g.length > 0)) {
          if (interrupted) throw new Error('interrupted');
          const offset = round * 100_003;
          const connections = scenario.connections ?? options.connections;
          // every target of the group at once: a warm-up (every response 2xx) or the measured run
          const loadGroup = (warmup: boolean) =>
            Promise.all(
              group.map((target) =>
                load(target, tokenOf(scenario), scenario, data, {
                  duration: warmup ? options.warmup : options.duration,
                  connections,
                  rate: options.rate,
                  stream: `${target.name}-r${round}${warmup ? 'w' : ''}`,
                  offset: warmup ? offset : offset + 50_000,
                  check: warmup,
                }),
              ),
            );
          const warm = await loadGroup(true);
          await drain(db);
          group.forEach((target, i) => {
            const { result, failures, firstFailure } = warm[i];
            if (result.requests.total === 0) {
              log(
                `WARNING no request of ${scenario.name} completed on ${target.name} during the ${options.warmup} s warm-up: requests take longer than that`,
              );
            }
            if (failures > 0 || result.errors > 0) {
              throw new Error(
                `warm-up of ${scenario.name} on ${target.name}: ${failures} non-2xx responses, ${result.errors} errors ` +
                  `(${result.timeouts} timeouts) of ${result.requests.total}; first: ${firstFailure ?? '(connection errors)'}`,
              );
            }
          });
          const rss = group.map((target) => (target.child ? sampleRss(target.child.pid) : undefined));
          const cpuBefore = group.map((target) => (target.child ? cpuSeconds(target.child.pid) : undefined));
          const dbCpuBefore = localDatabase ? postgresCpu() : undefined;
          const results = await loadGroup(false);
          if (interrupted) throw new Error('interrupted');
          await drain(db);
          // measured after the drain, over every request sent: the ones still in flight when the
          // run stopped were processed too
          const sent = results.map(({ result }) => Math.max(result.requests.sent ?? 0, result.requests.total));
          const dbCpuAfter = dbCpuBefore ? postgresCpu() : undefined;
          // a group's database CPU is shared: per request of the whole group
          const dbCpuMsPerRequest =
            dbCpuBefore && dbCpuAfter && sent.some((n) => n > 0)
              ? (cpuSince(dbCpuBefore, dbCpuAfter) * 1000) / sent.reduce((a, b) => a + b, 0)
              : undefined;
          group.forEach((target, i) => {
            const { result } = results[i];
            if (result.requests.total === 0) {
              notes.push(
                `${scenario.name} on ${target.name}, round ${round}: no request completed in ${options.duration} s (use a longer --duration)`,
              );
            }
            const run: RunResult = {
              scenario: scenario.name,
              target: target.name,
              round,
              reqPerSec: result.requests.average,
              p50: result.latency.p50,
              p99: result.latency.p99,
              non2xx: result.non2xx,
              errors: result.errors,
              timeouts: result.timeouts,
              requests: result.requests.total,
              maxRssMb: rss[i]?.stop(),
              dbCpuMsPerRequest,
            };
            const cpuAfter = target.child ? cpuSeconds(target.child.pid) : undefined;
            const before = cpuBefore[i];
            if (before !== undefined && cpuAfter !== undefined && sent[i] > 0)
              run.cpuMsPerRequest = ((cpuAfter - before) * 1000) / sent[i];
            runs.push(run);
            done++;
            log(
              `[${done}/${total}] round ${round} ${scenario.name.padEnd(12)} ${target.name.padEnd(8)} ` +
                `${run.reqPerSec.toFixed(1).padStart(8)} req/s  p50 ${run.p50.toFixed(1)} ms  p99 ${run.p99.toFixed(1)} ms  ` +
                `errors ${run.non2xx + run.errors}  RSS ${run.maxRssMb?.toFixed(0) ?? '?'} MB  CPU ${run.cpuMsPerRequest?.toFixed(2) ?? '?'} ms/req  DB CPU ${run.dbCpuMsPerRequest?.toFixed(2) ?? '?'} ms/req`,
            );
          });
          if (scenario.writes) {
            // every target's writes start from the same tables (no rows, dead tuples or index
            // growth left by the target before it; seeded people as seeded)
            await cleanAfterWrites(db, options, scenario);
          }
          await sleep(250);
        }
      }
    }

    // 5. keyset: first page vs a deep page, sequential (the comparison of bench/keyset-depth.ts)
    const keyset =
      services.length && options.keysetSamples > 0
        ? await keysetComparison(services[0], key.token, db, options)
        : undefined;

    // 6. the SQL's own time: the statements of the scenarios that ask for it, captured and explained
    const explained = services.length
      ? await explainPass(options, { url, mainJs, readsAdapter, logsDir, cursorKey }, key.token, data)
      : [];

    // 7. report
    const summary = summarize(
      runs,
      options.scenarios,
      targets.map((t) => ({ name: t.name, kind: t.kind, status: t.status, note: t.note })),
    );
    const peerName = targets.find((t) => t.kind === 'peer')?.name;
    const table = textTable(summary, peerName);
    const markdown = markdownTable(summary, peerName);
    const environment = { ...(await describeEnvironment(db, serviceDir)), loadAverageAtStart: loadAtStart };
    const out = {
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      options: {
        ...options,
        scenarios: options.scenarios.map((s) => s.name),
        databaseUrl: redact(options.databaseUrl),
      },
      environment,
      scenarios: options.scenarios.map((s) => ({
        name: s.name,
        description: s.description,
        recordsPerRequest: s.recordsPerRequest ?? null,
      })),
      targets: targets.map((t) => ({ name: t.name, kind: t.kind, status: t.status, note: t.note ?? null })),
      checks,
      notes,
      summary,
      runs,
      keyset: keyset ?? null,
      explain: explained,
    };
    const file = join(resultsDir, `${stamp}.json`);
    writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);

    const header =
      `${options.rows.toLocaleString('en-US')} companies, people and opportunities, ${options.connections} connections` +
      options.scenarios
        .filter((s) => s.connections !== undefined)
        .map((s) => ` (${s.name}: ${s.connections})`)
        .join('') +
      (options.rate ? `, ${options.rate} requests/s in all` : '') +
      (options.together ? ', the services loaded together (each with these connections), the baseline alone' : '') +
      ', ' +
      `${options.warmup} s warm-up + ${options.duration} s measured, ${options.rounds} round(s), medians; ratio = req/s over the baseline's` +
      (peerName ? `, vs ${peerName} = req/s over ${peerName}'s (n/a: no equivalent request)` : '');
    process.stdout.write(`\n${header}\n\n${table}\n\n`);
    if (keyset) {
      process.stdout.write(
        `keyset (people, limit 200, p50 of ${options.keysetSamples} sequential requests, ${keyset.target}):\n`,
      );
      for (const k of keyset.results) {
        process.stdout.write(
          `  ${k.label}: first page ${k.first.p50.toFixed(1)} ms, page ${keyset.page} ${k.deep.p50.toFixed(1)} ms, ratio ${(k.deep.p50 / k.first.p50).toFixed(2)}\n`,
        );
      }
      process.stdout.write('\n');
    }
    if (explained.length) process.stdout.write(`${explainReport(explained, true)}\n\n`);
    for (const note of notes) process.stdout.write(`note: ${note}\n`);
    for (const t of targets) if (t.status !== 'ok') process.stdout.write(`note: ${t.name} did not start: ${t.note}\n`);
    process.stdout.write(`\nMarkdown:\n\n${header}\n\n${markdown}\n\nresults: ${file}\n`);
  } finally {
    // a --cpu-prof profile is written when the process exits: give it time to
    await stopAll(options.cpuProf ? 60_000 : undefined).catch(() => undefined);
    await removeRunLeftovers(db, { keys: true }).catch(() => undefined);
    if (options.scenarios.some((s) => s.changesSeed))
      await restoreSeededPeople(db, options.rows).catch(() => undefined);
    await db.end().catch(() => undefined);
  }
}

interface StartContext {
  url: string;
  mainJs: string;
  readsAdapter: boolean;
  logsDir: string;
  cursorKey: Buffer;
}

/** The environment of a service process (every target alike; `quiet`: no webhook dispatcher, whose polling is not request work). */
function serviceEnvironment(
  options: Options,
  adapter: string,
  port: number,
  databaseUrl: string,
  quiet: boolean,
  metricsPort: number,
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    // metrics on, as by default, each service on a port of its own (--env METRICS_PORT=0: off)
    METRICS_PORT: String(metricsPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info', // the service's default: one JSON line per request (into the log file)
    BOOTSTRAP_API_KEY: 'false',
    // the service's configuration caps these at 1,000,000 / 60,000,000: effectively no limit
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_PER_MINUTE: '60000000',
    ENCRYPTION_KEY,
    HTTP_ADAPTER: adapter,
    BULK_MAX: '10000', // the default, explicit: update-many-10k matches exactly this many
    ...(quiet ? { WEBHOOK_DISPATCH: 'false' } : {}),
    ...options.serviceEnv,
  };
}

/**
 * Starts the service once per adapter, then the baseline. With --sql-check, each connects to
 * PostgreSQL through its own recording proxy, and the service's webhook dispatcher is off (its
 * polling is not request work).
 */
async function startTargets(options: Options, context: StartContext): Promise<Target[]> {
  const { url, mainJs, readsAdapter, logsDir, cursorKey } = context;
  const databaseUrlFor = async (target: Target) => {
    if (!options.sqlCheck) return url;
    const u = new URL(url);
    target.capture = new SqlCapture(u.hostname, Number(u.port || 5432));
    u.hostname = '127.0.0.1';
    u.port = String(await target.capture.start());
    return u.toString();
  };
  // written when the target exits (stopped at the end of the run)
  const profile = (name: string) =>
    options.cpuProf ? ['--cpu-prof', '--cpu-prof-dir', logsDir, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  const targets: Target[] = [];
  const services = options.adapters.flatMap((adapter) => [
    { adapter, name: adapter, env: {} as Record<string, string> },
    ...options.variants.map((v) => ({ adapter, name: `${adapter}+${v.name}`, env: v.env })),
  ]);
  for (const { adapter, name, env } of services) {
    const port = await freePort();
    const target: Target = { name, kind: 'service', url: `http://127.0.0.1:${port}`, status: 'did not start' };
    targets.push(target);
    if (adapter !== 'express' && !readsAdapter) {
      target.note = 'this build does not read HTTP_ADAPTER (it would run Express)';
      log(`${name}: did not start: ${target.note}`);
      continue;
    }
    const environment = serviceEnvironment(
      options,
      adapter,
      port,
      await databaseUrlFor(target),
      options.sqlCheck,
      await freePort(),
    );
    target.child = startChild(
      name,
      process.execPath,
      [...profile(name), mainJs],
      { ...environment, ...env },
      options.serviceDir,
      join(logsDir, `${name}.log`),
    );
    try {
      await waitReady(target.child, `${target.url}/rest/health`);
      target.status = 'ok';
      log(`${name}: ready on ${target.url} (pid ${target.child.pid})`);
    } catch (error) {
      target.note = (error as Error).message.split('\n').slice(0, 4).join(' | ');
      log(`${name}: did not start: ${(error as Error).message}`);
      await stopChild(target.child).catch(() => undefined);
    }
  }
  const basePort = await freePort();
  const baseline: Target = {
    name: 'baseline',
    kind: 'baseline',
    url: `http://127.0.0.1:${basePort}`,
    status: 'did not start',
  };
  baseline.child = startChild(
    'baseline',
    process.execPath,
    [...profile('baseline'), '-r', 'ts-node/register/transpile-only', join(ROOT, 'bench', 'baseline-server.ts')],
    {
      DATABASE_URL: await databaseUrlFor(baseline),
      PORT: String(basePort),
      HOST: '127.0.0.1',
      BASELINE_CURSOR_KEY: cursorKey.toString('hex'),
      BULK_MAX: '10000',
      // --env DB_POOL_SIZE=N sizes both pools alike
      ...(options.serviceEnv.DB_POOL_SIZE ? { DB_POOL_SIZE: options.serviceEnv.DB_POOL_SIZE } : {}),
      TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
    },
    ROOT,
    join(logsDir, 'baseline.log'),
  );
  await waitReady(baseline.child, `${baseline.url}/health`);
  baseline.status = 'ok';
  log(`baseline: ready on ${baseline.url} (pid ${baseline.child.pid})`);
  targets.push(baseline);
  // peers answer other requests: nothing to compare under --sql-check
  if (!options.sqlCheck && options.peers.includes('platformatic'))
    targets.push(await startPlatformatic(options, context, profile));
  return targets;
}

/**
 * Platformatic DB (`--peers platformatic`) over the bench database's person and company tables:
 * installed when missing, configured (lib/peers.ts), started on a free port; its admin secret
 * sent with every request.
 */
async function startPlatformatic(
  options: Options,
  context: StartContext,
  profile: (name: string) => string[],
): Promise<Target> {
  const cli = await ensurePlatformatic(log);
  const port = await freePort();
  const secret = randomBytes(16).toString('hex');
  const target: Target = {
    name: 'platformatic',
    kind: 'peer',
    url: `http://127.0.0.1:${port}`,
    status: 'did not start',
    headers: { [PLATFORMATIC_SECRET_HEADER]: secret },
  };
  const db = await connect(context.url);
  const config = join(context.logsDir, 'platformatic.json');
  try {
    writeFileSync(config, `${JSON.stringify(await platformaticConfig(db, context.url, port, secret), null, 2)}\n`);
  } finally {
    await db.end();
  }
  target.child = startChild(
    'platformatic',
    process.execPath,
    [...profile('platformatic'), cli, 'start', '-c', config],
    {},
    context.logsDir,
    join(context.logsDir, 'platformatic.log'),
  );
  try {
    await waitReady(target.child, `${target.url}/documentation/json`);
    target.status = 'ok';
    log(`platformatic: ready on ${target.url} (pid ${target.child.pid})`);
  } catch (error) {
    target.note = (error as Error).message.split('\n').slice(0, 4).join(' | ');
    log(`platformatic: did not start: ${(error as Error).message}`);
    await stopChild(target.child).catch(() => undefined);
  }
  return target;
}

/** What Platformatic's requests need: the columns the service returns, and the NOT NULL values of the sampled companies (its PUT validates a whole record). */
async function preparePeerData(db: Client, companyIds: string[]): Promise<PeerData> {
  const columns = async (table: string) =>
    (
      await db.query(
        `SELECT column_name AS name, is_nullable = 'NO' AS required FROM information_schema.columns ` +
          `WHERE table_schema = 'public' AND table_name = $1 AND column_name <> 'searchVector' ORDER BY ordinal_position`,
        [table],
      )
    ).rows as { name: string; required: boolean }[];
  const person = await columns('person');
  const company = await columns('company');
  // Platformatic requires every NOT NULL column but the primary key and its timestamps
  const required = company
    .filter((c) => c.required && !['id', 'createdAt', 'updatedAt'].includes(c.name))
    .map((c) => c.name);
  const rows = (
    await db.query(
      `SELECT "id", ${required.map((c) => `"${c}"`).join(', ')} FROM "company" WHERE "id" = ANY($1::uuid[])`,
      [companyIds],
    )
  ).rows;
  return {
    fields: { person: person.map((c) => c.name).join(','), company: company.map((c) => c.name).join(',') },
    companies: new Map(rows.map(({ id, ...values }) => [id as string, values])),
  };
}

/**
 * --sql-check: sends each scenario's first request to every target and compares the SQL the
 * service sent with the baseline's (as multisets: parallel queries finish in any order).
 * Returns how many scenario x adapter pairs differ.
 */
async function sqlCheck(
  db: Client,
  targets: Target[],
  token: string,
  data: PreparedData,
  options: Options,
  cursorKey: Buffer,
  file: string,
): Promise<number> {
  const live = targets.filter((t) => t.status === 'ok');
  const services = live.filter((t) => t.kind === 'service');
  data.deepCursors.baseline = data.deepIds.map((id) => encodeBaselineCursor(cursorKey, id));
  if (services.length) data.deepCursors.service = await serviceCursors(services[0], token, 'companies', data.deepIds);
  const report: Record<string, Record<string, string[]>> = {};
  let differing = 0;
  for (const scenario of options.scenarios) {
    report[scenario.name] = {};
    for (const target of live) {
      const since = Date.now();
      const answer = await sendOnce(target, token, scenario.request(data, 0, target.kind, `sql-${target.name}`));
      if (answer.status < 200 || answer.status >= 300) {
        throw new Error(
          `${scenario.name} on ${target.name} answered HTTP ${answer.status}:\n${answer.text.slice(0, 2000)}`,
        );
      }
      await sleep(300); // work a handler does after its response
      report[scenario.name][target.name] = target.capture!.since(since);
      if (scenario.writes) await cleanAfterWrites(db, options, scenario);
    }
    for (const service of services) {
      const differences = compareStatements(report[scenario.name][service.name], report[scenario.name].baseline);
      if (differences.length) differing++;
      process.stdout.write(
        `${scenario.name} (${service.name} vs baseline): ${differences.length ? 'DIFFERENT' : 'same statements'}\n`,
      );
      for (const d of differences) process.stdout.write(`  ${d.length > 600 ? `${d.slice(0, 600)}...` : d}\n`);
    }
  }
  const explained = services.length
    ? await explainScenarios(options.databaseUrl, services[0], token, options.scenarios, data)
    : [];
  if (explained.length) process.stdout.write(`\n${explainReport(explained, false)}\n`);
  for (const target of targets) await target.capture?.stop();
  writeFileSync(file, `${JSON.stringify({ statements: report, explain: explained }, null, 2)}\n`);
  process.stdout.write(`\nstatements per scenario and target, and the explained ones: ${file}\n`);
  return differing;
}

/**
 * The statements the service sends for the first `scenario.explain` requests of each read
 * scenario that asks for it (through `target`'s recording proxy), each run again under
 * EXPLAIN (ANALYZE, BUFFERS) with its own values.
 */
async function explainScenarios(
  url: string,
  target: Target,
  token: string,
  scenarios: Scenario[],
  data: ScenarioData,
): Promise<ExplainResult[]> {
  const results: ExplainResult[] = [];
  if (!scenarios.some((s) => s.explain && !s.writes)) return results;
  const db = await explainConnection(url);
  try {
    await explainEach(db, target, token, scenarios, data, results);
  } finally {
    await db.end().catch(() => undefined);
  }
  return results;
}

async function explainEach(
  db: Client,
  target: Target,
  token: string,
  scenarios: Scenario[],
  data: ScenarioData,
  results: ExplainResult[],
): Promise<void> {
  for (const scenario of scenarios) {
    if (!scenario.explain || scenario.writes) continue;
    for (let i = 0; i < scenario.explain; i++) {
      const request = scenario.request(data, i, 'service', 'explain');
      const since = Date.now();
      const answer = await sendOnce(target, token, request);
      if (answer.status < 200 || answer.status >= 300)
        throw new Error(`explain: ${scenario.name} answered HTTP ${answer.status}:\n${answer.text.slice(0, 2000)}`);
      await sleep(300); // work a handler does after its response
      const described = `${request.method} ${decodeURIComponent(request.path)}`;
      log(`explain: ${scenario.name} ${described}`);
      results.push(await explainCaptured(db, scenario.name, described, target.capture!.entriesSince(since)));
    }
  }
}

/**
 * After the rounds: one more service process (the first adapter) whose connection goes through a
 * recording proxy (the measured ones do not: a proxy hop would distort them), for explainScenarios.
 */
async function explainPass(
  options: Options,
  context: StartContext,
  token: string,
  data: ScenarioData,
): Promise<ExplainResult[]> {
  if (!options.scenarios.some((s) => s.explain && !s.writes)) return [];
  const u = new URL(context.url);
  const capture = new SqlCapture(u.hostname, Number(u.port || 5432));
  u.hostname = '127.0.0.1';
  u.port = String(await capture.start());
  const port = await freePort();
  const adapter = options.adapters[0] ?? 'express';
  const child = startChild(
    'explain',
    process.execPath,
    [context.mainJs],
    serviceEnvironment(options, adapter, port, u.toString(), true, await freePort()),
    options.serviceDir,
    join(context.logsDir, 'explain.log'),
  );
  try {
    const target: Target = {
      name: 'explain',
      kind: 'service',
      url: `http://127.0.0.1:${port}`,
      child,
      capture,
      status: 'ok',
    };
    await waitReady(child, `${target.url}/rest/health`);
    return await explainScenarios(context.url, target, token, options.scenarios, data);
  } finally {
    await stopChild(child).catch(() => undefined);
    await capture.stop();
  }
}

/**
 * Waits until no other session of the benchmark database is working: autocannon stops at the
 * end of a run without waiting for the requests in flight, and their queries must not overlap
 * the next run (maybe of another target).
 */
async function drain(db: Client, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  while (quiet < 2) {
    const [{ n }] = (
      await db.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() ` +
          `AND backend_type = 'client backend' AND state <> 'idle' AND pid <> pg_backend_pid()`,
      )
    ).rows;
    quiet = n === 0 ? quiet + 1 : 0;
    if (Date.now() > deadline) {
      log(`WARNING the database was still busy ${timeoutMs / 1000} s after a run`);
      return;
    }
    await sleep(50);
  }
}

/**
 * After writes: the rows created through the API and the events removed, the seeded people the
 * scenario changed restored, the tables vacuumed.
 */
async function cleanAfterWrites(db: Client, options: Options, scenario: Scenario): Promise<void> {
  await removeRunLeftovers(db, { keys: false });
  if (scenario.changesSeed) {
    const restored = await restoreSeededPeople(db, options.rows);
    if (restored > 0) log(`  restored ${restored.toLocaleString('en-US')} seeded people`);
  }
  await vacuumSeeded(db);
}

function redact(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '***';
  return u.toString();
}

interface PreparedData extends ScenarioData {
  /** Company ids at the start of the deep pages (one cursor each). */
  deepIds: string[];
}

/** Deterministic samples of the seeded rows, and the positions of the deep pages. */
async function prepareData(db: Client, rows: number): Promise<PreparedData> {
  const people = (
    await db.query(
      `SELECT "id", "nameFirstName" AS "firstName", "nameLastName" AS "lastName", "emailsPrimaryEmail" AS "email" ` +
        `FROM "person" WHERE "createdBySource" = 'IMPORT' ORDER BY md5("id"::text) LIMIT 5000`,
    )
  ).rows;
  const companyIds = (
    await db.query(`SELECT "id" FROM "company" WHERE "createdBySource" = 'IMPORT' ORDER BY md5("id"::text) LIMIT 5000`)
  ).rows.map((r) => r.id as string);
  // ~page 1000 at limit 60 (less on small data sets): 20 cursors, pages 1000..1019
  const page = Math.max(1, Math.min(1000, Math.floor((rows * 0.9) / 60) - 20));
  const deepIds: string[] = [];
  for (let k = 0; k < 20; k++) {
    const [row] = (
      await db.query(`SELECT "id" FROM "company" WHERE "deletedAt" IS NULL ORDER BY "id" OFFSET $1 LIMIT 1`, [
        (page + k) * 60 - 1,
      ])
    ).rows;
    deepIds.push(row.id);
  }
  return {
    people,
    companyIds,
    deepIds,
    deepCursors: { service: [], baseline: [] },
    runTag: randomBytes(4).toString('hex'),
    rows,
  };
}

/**
 * The service's own cursor positioned on each id (default sort, by id): the endCursor of a
 * one-record page filtered on that id. The cursor signs the sort, not the filter, so it pages
 * the unfiltered list from there (this avoids walking 1,000 pages first).
 */
async function serviceCursors(target: Target, token: string, plural: string, ids: string[]): Promise<string[]> {
  const cursors: string[] = [];
  for (const id of ids) {
    const answer = await sendOnce(target, token, {
      method: 'GET',
      path: `/rest/${plural}?limit=1&depth=0&fields=id&filter=${encodeURIComponent(`id[eq]:${id}`)}`,
    });
    const cursor = (answer.json as { pageInfo?: { endCursor?: string } } | undefined)?.pageInfo?.endCursor;
    if (answer.status !== 200 || !cursor)
      throw new Error(`could not get a cursor from ${target.name}: HTTP ${answer.status} ${answer.text.slice(0, 500)}`);
    cursors.push(cursor);
  }
  return cursors;
}

/** First page vs a deep page (page 5,000 at limit 200 on 1M rows), p50 of sequential requests, as bench/keyset-depth.ts measured. */
async function keysetComparison(target: Target, token: string, db: Client, options: Options) {
  const limit = 200;
  const people = (await db.query(`SELECT count(*)::int AS n FROM "person" WHERE "deletedAt" IS NULL`)).rows[0]
    .n as number;
  const page = Math.max(2, Math.min(5000, Math.floor(people / limit)));
  const [row] = (
    await db.query(`SELECT "id" FROM "person" WHERE "deletedAt" IS NULL ORDER BY "id" OFFSET $1 LIMIT 1`, [
      (page - 1) * limit - 1,
    ])
  ).rows;
  const [cursor] = await serviceCursors(target, token, 'people', [row.id]);
  const latency = async (path: string) => {
    const times: number[] = [];
    for (let i = 0; i < options.keysetSamples; i++) {
      const start = process.hrtime.bigint();
      const answer = await sendOnce(target, token, { method: 'GET', path });
      if (answer.status !== 200)
        throw new Error(`keyset: HTTP ${answer.status} for ${path}: ${answer.text.slice(0, 500)}`);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return { p50: median(times), p90: sorted[Math.floor(sorted.length * 0.9)] };
  };
  log(`keyset: first page vs page ${page} (limit ${limit}) on ${target.name}...`);
  const results = [];
  for (const [label, query] of [
    ['depth=0&limit=200 (with the exact totalCount)', `depth=0&limit=${limit}`],
    ['depth=0&limit=200&fields=id,name', `depth=0&limit=${limit}&fields=id,name`],
  ] as const) {
    const first = await latency(`/rest/people?${query}`);
    const deep = await latency(`/rest/people?${query}&starting_after=${encodeURIComponent(cursor)}`);
    results.push({ label, first, deep });
  }
  return { target: target.name, people, limit, page, samples: options.keysetSamples, results };
}

async function describeEnvironment(db: Client, serviceDir: string) {
  const [{ version }] = (await db.query('SELECT version()')).rows;
  const git = await new Promise<string>((resolvePromise) => {
    const child = spawn('git', ['describe', '--always', '--dirty'], {
      cwd: serviceDir,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', () => resolvePromise('unknown'));
    child.on('exit', () => resolvePromise(out.trim() || 'unknown'));
  });
  return {
    node: process.version,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    /** 1/5/15-minute load averages at the end: other work on the machine skews the numbers. */
    loadAverageAtEnd: loadavg().map((v) => Math.round(v * 100) / 100),
    postgres: version,
    serviceCommit: git,
  };
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`\n${signal}: stopping the load and the servers...`);
    currentRun?.stop();
    void stopAll().finally(() => process.exit(130));
  });
}

main().catch(async (error: Error) => {
  process.stderr.write(`\nbenchmark failed: ${error.message}\n`);
  await stopAll().catch(() => undefined);
  process.exit(1);
});
