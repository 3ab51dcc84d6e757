import { SERIES_BUDGET } from '../../src/core/metrics/metric-catalog';
import { manifestProblems, parsePrometheusText, valueOf } from '../support/prometheus-text';

export const METRICS_TOKEN = 'cluster-metrics-token-0123456789';

/**
 * Scrapes every instance on its own metrics port (never through HAProxy, whose frontend has only
 * the API), as Prometheus does: each must answer, match the manifest within the series budget,
 * and have served part of the load (its request counter for the load's list route above 0).
 */
export async function scrapeInstances(ports: number[]): Promise<{ problems: string[]; summary: string }> {
  const problems: string[] = [];
  const figures: string[] = [];
  for (const [i, port] of ports.entries()) {
    const started = performance.now();
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    }).catch((error: Error) => ({ status: 0, text: async () => error.message }));
    const text = await res.text();
    const ms = Math.round(performance.now() - started);
    if (res.status !== 200) {
      problems.push(`instance ${i + 1}: metrics answered ${res.status}: ${text.slice(0, 200)}`);
      continue;
    }
    const scrape = parsePrometheusText(text);
    problems.push(...manifestProblems(scrape).map((p) => `instance ${i + 1}: ${p}`));
    if (scrape.samples.length > SERIES_BUDGET)
      problems.push(`instance ${i + 1}: ${scrape.samples.length} series > ${SERIES_BUDGET}`);
    const requests = scrape.samples
      .filter((s) => s.name === 'http_server_request_duration_seconds_count')
      .reduce((sum, s) => sum + s.value, 0);
    const lists = valueOf(scrape, 'http_server_request_duration_seconds_count', {
      http_request_method: 'GET',
      http_route: '/rest/companies',
      http_response_status_code: '200',
    });
    if (!lists) problems.push(`instance ${i + 1}: no GET /rest/companies 200 counted during the load`);
    const pool = valueOf(scrape, 'db_client_connection_max', { db_client_connection_pool_name: 'primary' });
    figures.push(`#${i + 1}: ${requests} requests, ${scrape.samples.length} series, pool max ${pool}, ${ms} ms`);
  }
  return { problems, summary: `metrics scraped from each instance directly: ${figures.join('; ')}` };
}
