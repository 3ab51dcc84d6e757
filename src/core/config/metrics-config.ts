import { EnvReader } from './env-reader';

/** The metrics listener (API.md section 20). */
export interface MetricsConfig {
  /** `METRICS_PORT` (default 9464; 0 turns metrics off): `GET /metrics` on a listener of its own, never the API port. */
  port: number;
  /** `METRICS_HOST` (default HOST): the address the metrics listener binds. */
  host: string;
  /** `METRICS_TOKEN`: when set, a scrape must send `Authorization: Bearer <token>` (else 401). */
  token?: string;
  /** `METRICS_REFRESH_MS` (default 5000): how often the gauges read from the database are refreshed. */
  refreshMs: number;
}

export function readMetricsConfig(read: EnvReader, apiHost: string): MetricsConfig {
  const token = read.optional('METRICS_TOKEN');
  if (token !== undefined && token.length < 16) read.problems.push('METRICS_TOKEN must be at least 16 characters');
  return {
    port: read.int('METRICS_PORT', 9464, 0, 65535),
    host: read.string('METRICS_HOST', apiHost),
    token,
    refreshMs: read.int('METRICS_REFRESH_MS', 5000, 100, 3_600_000),
  };
}
