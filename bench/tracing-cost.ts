/**
 * Where tracing's cost for a request that is not sampled goes, measured in process on one
 * statement (no HTTP):
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx ts-node --transpile-only bench/tracing-cost.ts [--queries 20000] [--rounds 3]
 * Each mode runs in a process of its own (the SDK, once loaded, cannot be unloaded), the modes in
 * turn for `--rounds` rounds, and sends the same one-row statement one after the other; printed:
 * the median CPU time per statement of each mode, and every round's, of the whole process (all its
 * threads: the span export runs in a worker, worker-exporter.ts) and, on a Node.js that has
 * `process.threadCpuUsage` (24 has it, 20 not), of its main thread alone:
 * - off:        no SDK, no context (tracing off);
 * - als:        no SDK, each statement sent inside a bare `AsyncLocalStorage.run`;
 * - sdk:        the service's SDK (src/core/tracing/sdk.ts, sampling ratio 0) loaded, no active span;
 * - unsampled:  the SDK, each statement sent under an active span that is not recorded (what every
 *               statement of a request not sampled runs under);
 * - no-pg-span: the same, but the statement sent with the span removed from the context, so the
 *               pg instrumentation skips it (`requireParentSpan`): what the pg span itself costs.
 * - recorded:   the SDK sampling everything, each statement sent under a recorded span with a get
 *               by id's server-span attributes (its pg span recorded too), both exported to the
 *               collector of OTEL_EXPORTER_OTLP_ENDPOINT (bench/otlp-sink.ts), flushed within the
 *               measured time: what the SDK itself costs a recorded request of one statement,
 *               whatever the service around it does (the floor under tracing at 100 %);
 * - recorded-no-pg: the same without the pg span (one span per request).
 * The recorded modes need the collector; the others send nothing.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const MODES = ['off', 'als', 'sdk', 'unsampled', 'no-pg-span', 'recorded', 'recorded-no-pg'] as const;
type Mode = (typeof MODES)[number];

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '3' },
    mode: { type: 'string' },
  },
});
const queries = Number(values.queries);
if (!Number.isInteger(queries) || queries < 1000) throw new Error('--queries must be an integer >= 1000');
const url = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const recorded = (mode: Mode) => mode === 'recorded' || mode === 'recorded-no-pg';

/** A get by id's server-span attributes, as server-spans.ts sets them. */
const SERVER_ATTRIBUTES = {
  'http.request.method': 'GET',
  'url.scheme': 'http',
  'url.path': '/rest/people/a01cf641-0f73-4a0b-bd87-09074d9aab80',
  'server.address': '127.0.0.1',
  'server.port': 3000,
  'client.address': '127.0.0.1',
  'network.peer.address': '127.0.0.1',
  'network.peer.port': 51234,
  'network.protocol.version': '1.1',
  'user_agent.original': 'autocannon',
};

async function measure(mode: Mode): Promise<void> {
  let stopSdk = async (): Promise<void> => undefined;
  if (mode !== 'off' && mode !== 'als') {
    // before pg is loaded, as register.ts does: the instrumentation wraps it on load
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startSdk } = require('../src/core/tracing/sdk') as typeof import('../src/core/tracing/sdk');
    // the SDK reads the sampler from the process's environment
    if (recorded(mode)) {
      if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT) throw new Error(`${mode} needs OTEL_EXPORTER_OTLP_ENDPOINT`);
      process.env.OTEL_TRACES_SAMPLER = 'parentbased_always_on';
    } else {
      process.env.OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';
      process.env.OTEL_TRACES_SAMPLER_ARG = '0';
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9'; // nothing is recorded, so nothing is sent
    }
    stopSdk = startSdk(process.env);
  }
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { Pool } = require('pg') as typeof import('pg');
  const { AsyncLocalStorage } = require('node:async_hooks') as typeof import('node:async_hooks');
  const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const pool = new Pool({ connectionString: url, max: 1 });
  const als = new AsyncLocalStorage<number>();
  const tracer = api.trace.getTracer('bench');
  if (mode === 'unsampled' && tracer.startSpan('probe').isRecording()) throw new Error('the span is recorded');
  if (recorded(mode) && !tracer.startSpan('probe').isRecording()) throw new Error('the span is not recorded');
  const send = (i: number) => pool.query({ text: 'SELECT $1::int AS a, $2::text AS b', values: [i, 'b'] });
  // the statement sent with the active span left out of its context: the pg instrumentation skips it
  const sendWithoutSpan = (i: number) => api.context.with(api.trace.deleteSpan(api.context.active()), () => send(i));
  const one = async (i: number): Promise<unknown> => {
    switch (mode) {
      case 'off':
      case 'sdk':
        return send(i);
      case 'als':
        return als.run(i, () => send(i));
      case 'unsampled':
      case 'no-pg-span':
        return tracer.startActiveSpan('request', async (span) => {
          try {
            return await (mode === 'unsampled' ? send(i) : sendWithoutSpan(i));
          } finally {
            span.end();
          }
        });
      case 'recorded':
      case 'recorded-no-pg': {
        const options = { kind: api.SpanKind.SERVER, attributes: SERVER_ATTRIBUTES };
        return tracer.startActiveSpan('GET', options, async (span) => {
          try {
            return await (mode === 'recorded' ? send(i) : sendWithoutSpan(i));
          } finally {
            span.updateName('GET /rest/people/{id}').setAttribute('http.route', '/rest/people/{id}');
            span.setAttribute('http.response.status_code', 200);
            span.end();
          }
        });
      }
    }
  };
  const provider = api.trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
  const flush = async () => provider.getDelegate?.().forceFlush?.();
  // one request's spans exported first, which waits for the export worker to have started: until
  // then the first batch waits for it, and the warm-up's spans beyond the queue's 2,048 are dropped
  await one(0);
  await flush();
  for (let i = 0; i < Math.min(queries, 3000); i++) await one(i); // warm-up
  await flush(); // the warm-up's spans exported before the measured time
  const threadCpu = (process as { threadCpuUsage?: (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage;
  const cpu = process.cpuUsage();
  const mainCpu = threadCpu?.();
  for (let i = 0; i < queries; i++) await one(i);
  await stopSdk(); // the spans still batched are exported within the measured time
  const used = process.cpuUsage(cpu);
  const mainUsed = mainCpu && threadCpu!(mainCpu);
  await pool.end();
  const perQuery = (usage?: NodeJS.CpuUsage) => (usage ? (usage.user + usage.system) / queries : null);
  process.stdout.write(JSON.stringify([perQuery(used), perQuery(mainUsed)])); // read by the driver below
}

if (values.mode) {
  void measure(values.mode as Mode).then(() => process.exit(0));
} else {
  const rounds = Number(values.rounds);
  console.log(
    `${queries} statements per mode, one at a time, ${rounds} rounds (modes interleaved), Node ${process.version}`,
  );
  // the recorded modes only with a collector to send to
  const modes = MODES.filter((mode) => !recorded(mode) || process.env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const costs = new Map<Mode, [number, number | null][]>(modes.map((mode) => [mode, []]));
  for (let round = 0; round < rounds; round++)
    for (const mode of modes) {
      const run = spawnSync(
        process.execPath,
        ['-r', 'ts-node/register/transpile-only', __filename, '--mode', mode, '--queries', String(queries)],
        { stdio: ['ignore', 'pipe', 'inherit'], env: process.env, encoding: 'utf8' },
      );
      if (run.status !== 0) process.exit(run.status ?? 1);
      costs.get(mode)!.push(JSON.parse(run.stdout) as [number, number | null]);
    }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const figures = (values: number[]) =>
    `median ${median(values).toFixed(1).padStart(6)} µs (${values.map((v) => v.toFixed(1)).join(', ')})`;
  console.log('CPU per statement: all threads; main thread');
  for (const [mode, runs] of costs) {
    const all = figures(runs.map(([whole]) => whole));
    const threads = runs.map(([, thread]) => thread);
    const main = threads.every((thread) => thread !== null) ? figures(threads as number[]) : 'n/a';
    console.log(`${mode.padEnd(14)}  ${all};  ${main}`);
  }
}
