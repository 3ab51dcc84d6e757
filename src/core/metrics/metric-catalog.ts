/**
 * The manifest of every metric the service exposes (API.md section 20): its type, unit, help and
 * labels with their bounded values. The registry is built from it (metrics.ts), and the metrics
 * test checks a real scrape against it: no metric or label that is not declared here, no label
 * value outside its set, at most SERIES_BUDGET series. Names follow Prometheus and
 * OpenTelemetry: base units, counters end in `_total`.
 *
 * A label's values are either listed, or one of the bounded kinds:
 * - `route`: a route template of the route table (`/rest/people/{id}`) or `unmatched`;
 * - `method`: an HTTP method the service knows, or `_OTHER`;
 * - `status`: a three-digit HTTP status code;
 * - `pool`: `primary`, `replica_<n>` (n from 0, one per DATABASE_REPLICA_URLS entry) or `direct`
 *   (the connections opened outside the pools).
 */
export type LabelValues = readonly string[] | 'route' | 'method' | 'status' | 'pool';

export interface MetricDeclaration {
  type: 'counter' | 'gauge' | 'histogram';
  help: string;
  /** The unit its name ends with (`seconds`, `bytes`), or none. */
  unit?: 'seconds' | 'bytes';
  labels: Record<string, LabelValues>;
  /** Histogram buckets (upper bounds, in the metric's unit). */
  buckets?: readonly number[];
}

/** OpenTelemetry's default buckets for `http.server.request.duration`, in seconds. */
export const OTEL_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
/** Statements: finer at the low end (most take well under a millisecond). */
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A webhook POST: a receiver may take up to the delivery timeout. */
const DELIVERY_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What a scrape of one instance may hold, series of every metric together. */
export const SERIES_BUDGET = 3000;

/** Statement kinds: the first keyword of the SQL (a WITH counts as what it ends in: see statementKind). */
export const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete', 'copy', 'transaction', 'other'] as const;
export const DELIVERY_OUTCOMES = ['delivered', 'retry', 'failed'] as const;
export const IMPORT_STATES = ['queued', 'running'] as const;
export const IMPORT_ENDINGS = ['completed', 'failed', 'cancelled'] as const;
export const IMPORT_ROW_OUTCOMES = ['created', 'updated', 'unchanged', 'failed'] as const;

export const METRIC_CATALOG = {
  http_server_request_duration_seconds: {
    type: 'histogram',
    unit: 'seconds',
    help: 'Duration of HTTP requests on the API port, from the first byte read to the response sent.',
    labels: { http_request_method: 'method', http_route: 'route', http_response_status_code: 'status' },
    buckets: OTEL_DURATION_BUCKETS,
  },
  db_client_connections: {
    type: 'gauge',
    help: 'Connections of a database pool, by state (used: checked out; idle: open in the pool); pool direct: the connections opened outside the pools (LISTEN, session locks), all used.',
    labels: { db_client_connection_pool_name: 'pool', db_client_connection_state: ['used', 'idle'] },
  },
  db_client_connection_pending_requests: {
    type: 'gauge',
    help: 'Requests waiting for a connection of a database pool.',
    labels: { db_client_connection_pool_name: 'pool' },
  },
  db_client_connection_max: {
    type: 'gauge',
    help: 'The most connections a database pool opens.',
    labels: { db_client_connection_pool_name: 'pool' },
  },
  db_client_operation_duration_seconds: {
    type: 'histogram',
    unit: 'seconds',
    help: 'Duration of the SQL statements the service sends, by kind (the first keyword).',
    labels: { db_operation_name: STATEMENT_KINDS },
    buckets: STATEMENT_BUCKETS,
  },
  crm_replica_up: {
    type: 'gauge',
    help: 'Whether a read replica is used (1: answered its last health check in time, in recovery, within REPLICA_MAX_LAG_MS).',
    labels: { db_client_connection_pool_name: 'pool' },
  },
  crm_replica_lag_bytes: {
    type: 'gauge',
    unit: 'bytes',
    help: "WAL a read replica has still to replay: the primary's position minus the replica's, at the last health check.",
    labels: { db_client_connection_pool_name: 'pool' },
  },
  crm_webhook_outbox_pending_deliveries: {
    type: 'gauge',
    help: 'Webhook deliveries in the outbox not yet delivered nor given up on.',
    labels: {},
  },
  crm_webhook_outbox_oldest_pending_age_seconds: {
    type: 'gauge',
    unit: 'seconds',
    help: 'Age of the oldest pending webhook delivery (0 when none is pending).',
    labels: {},
  },
  crm_webhook_deliveries_total: {
    type: 'counter',
    help: 'Webhook delivery attempts by outcome (delivered; retry: failed, tried again later; failed: given up).',
    labels: { outcome: DELIVERY_OUTCOMES },
  },
  crm_webhook_delivery_duration_seconds: {
    type: 'histogram',
    unit: 'seconds',
    help: "Duration of a webhook delivery's POST, by outcome.",
    labels: { outcome: DELIVERY_OUTCOMES },
    buckets: DELIVERY_BUCKETS,
  },
  crm_change_feed_head_position: {
    type: 'gauge',
    help: 'Position of the newest change the change feed has handed out (positions are handed out as the feed is read).',
    labels: {},
  },
  crm_change_streams_open: {
    type: 'gauge',
    help: 'Change streams (GET /rest/changes/stream) open on this instance.',
    labels: {},
  },
  crm_change_stream_max_lag_changes: {
    type: 'gauge',
    help: 'Changes the furthest-behind open change stream has still to send (0 when none is open).',
    labels: {},
  },
  crm_file_deletions_pending: {
    type: 'gauge',
    help: 'Stored files whose record is gone, waiting to be deleted from the file storage.',
    labels: {},
  },
  crm_import_jobs: {
    type: 'gauge',
    help: 'Import jobs waiting (queued) or under way (running), on every instance together.',
    labels: { state: IMPORT_STATES },
  },
  crm_import_jobs_finished_total: {
    type: 'counter',
    help: 'Import jobs this instance finished, by final state.',
    labels: { state: IMPORT_ENDINGS },
  },
  crm_import_rows_total: {
    type: 'counter',
    help: 'Rows of the imports this instance ran, by outcome.',
    labels: { outcome: IMPORT_ROW_OUTCOMES },
  },
  crm_rate_limit_refusals_total: {
    type: 'counter',
    help: 'Requests refused with 429 by the rate limit.',
    labels: {},
  },
  crm_count_cache_lookups_total: {
    type: 'counter',
    help: 'Lookups of the count cache, by result (hit: the total count came from the cache).',
    labels: { result: ['hit', 'miss'] },
  },
} as const satisfies Record<string, MetricDeclaration>;

export type MetricName = keyof typeof METRIC_CATALOG;

/**
 * Node's runtime metrics (prom-client's collectDefaultMetrics: event-loop delay, heap, GC,
 * CPU, handles), declared by prefix: their names and labels are prom-client's.
 */
export const RUNTIME_METRIC_PREFIXES = ['process_', 'nodejs_'] as const;
