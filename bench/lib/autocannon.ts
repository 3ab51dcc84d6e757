/** The part of autocannon's programmatic API the benchmark uses (the package ships no types). */
export interface AutocannonRequest {
  setupRequest?: (request: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
  onResponse?: (
    status: number,
    body: string,
    context: Record<string, unknown>,
    headers: Record<string, string>,
  ) => void;
}

export interface AutocannonOptions {
  url: string;
  connections: number;
  duration: number;
  /** Requests per second over all connections. */
  overallRate?: number;
  timeout?: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}

export interface AutocannonResult {
  requests: { average: number; total: number; sent?: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  '2xx': number;
  duration: number;
}

export interface AutocannonInstance extends PromiseLike<AutocannonResult> {
  stop(): void;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const autocannon = require('autocannon') as (options: AutocannonOptions) => AutocannonInstance;
export default autocannon;
