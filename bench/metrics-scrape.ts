/**
 * A scrape at the series budget (API.md section 20): how long rendering the metrics takes and how
 * long it holds the event loop, with the registry filled to SERIES_BUDGET series (request
 * histograms over as many route labels as it takes, every other metric as the service has it).
 *
 *   npx ts-node --transpile-only bench/metrics-scrape.ts [--scrapes 200]
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { SERIES_BUDGET } from '../src/core/metrics/metric-catalog';
import { Metrics } from '../src/core/metrics/metrics';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};

const series = (text: string) => text.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function main(): Promise<void> {
  const scrapes = arg('scrapes', 200);
  const metrics = new Metrics();
  const requests = metrics.histogram('http_server_request_duration_seconds');
  const statements = metrics.histogram('db_client_operation_duration_seconds');
  for (const kind of ['select', 'insert', 'update', 'delete', 'copy', 'transaction', 'other'] as const)
    statements.observe({ db_operation_name: kind }, 0.002);
  // route labels until the budget: each is a histogram of 17 series (14 buckets, +Inf, sum, count)
  let route = 0;
  while (series((await metrics.render(false)).body) + 17 <= SERIES_BUDGET) {
    const method = ['GET', 'POST', 'PATCH', 'DELETE'][route % 4];
    const status = ['200', '201', '400', '404', '401'][route % 5];
    requests.observe(
      { http_request_method: method, http_route: `/rest/c${route}/{id}`, http_response_status_code: status },
      0.01,
    );
    route++;
  }
  const size = series((await metrics.render(false)).body);
  for (let i = 0; i < 20; i++) await metrics.render(i % 2 === 1); // warm-up
  const durations: Record<string, number[]> = { text: [], openmetrics: [] };
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  let bytes = 0;
  for (let i = 0; i < scrapes; i++) {
    const open = i % 2 === 1;
    const started = performance.now();
    bytes = (await metrics.render(open)).body.length;
    durations[open ? 'openmetrics' : 'text'].push(performance.now() - started);
    await new Promise((resolve) => setImmediate(resolve));
  }
  loop.disable();
  for (const [format, list] of Object.entries(durations)) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(
      `${format}: ${size} series (${route} route labels), ${(bytes / 1024).toFixed(0)} KiB; render p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`,
    );
  }
  console.log(
    `event loop during ${scrapes} scrapes: delay max ${(loop.max / 1e6).toFixed(1)} ms, p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms`,
  );
  await metrics.stop();
}

void main();
