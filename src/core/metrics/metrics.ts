import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, RegistryContentType } from 'prom-client';
import { METRIC_CATALOG, MetricName } from './metric-catalog';

type Catalog = typeof METRIC_CATALOG;
type NamesOf<T extends string> = { [K in MetricName]: Catalog[K]['type'] extends T ? K : never }[MetricName];
type LabelsOf<K extends MetricName> = Partial<Record<keyof Catalog[K]['labels'] & string, string | number>>;

/** A task that refreshes gauges from the database; run on a timer, never at scrape time. */
export type RefreshTask = () => Promise<void>;

/**
 * The one prom-client registry of the process (API.md section 20), built from the manifest
 * (metric-catalog.ts): every metric declared there and Node's runtime metrics, nothing else.
 * Services record through the typed accessors; the edge serves the registry on its own listener
 * (observability/metrics-server.ts). Gauges that need SQL register a refresh task, run every
 * METRICS_REFRESH_MS while the listener is on; gauges read from memory register a scrape hook.
 */
export class Metrics {
  readonly registry = new Registry<RegistryContentType>();
  private readonly instruments = new Map<MetricName, Counter | Gauge | Histogram>();
  private readonly refreshTasks: { name: string; task: RefreshTask }[] = [];
  private readonly scrapeHooks: (() => void)[] = [];
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private rendering: Promise<unknown> = Promise.resolve();

  constructor() {
    for (const [name, declaration] of Object.entries(METRIC_CATALOG)) {
      const options = {
        name,
        help: declaration.help,
        labelNames: Object.keys(declaration.labels),
        registers: [this.registry],
      };
      const instrument =
        declaration.type === 'counter'
          ? new Counter(options)
          : declaration.type === 'gauge'
            ? new Gauge(options)
            : new Histogram({ ...options, buckets: [...(declaration as { buckets: number[] }).buckets] });
      this.instruments.set(name as MetricName, instrument);
    }
    collectDefaultMetrics({ register: this.registry });
    // gauges named like counters (promtool refuses them); each has a per-type twin without `_total`
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'])
      this.registry.removeSingleMetric(name);
  }

  counter<K extends NamesOf<'counter'>>(name: K): { inc(labels?: LabelsOf<K>, value?: number): void } {
    const counter = this.instruments.get(name) as Counter;
    return { inc: (labels = {}, value = 1) => counter.inc(labels as Record<string, string>, value) };
  }

  gauge<K extends NamesOf<'gauge'>>(name: K): { set(labels: LabelsOf<K>, value: number): void } {
    const gauge = this.instruments.get(name) as Gauge;
    return { set: (labels, value) => gauge.set(labels as Record<string, string>, value) };
  }

  histogram<K extends NamesOf<'histogram'>>(name: K): { observe(labels: LabelsOf<K>, value: number): void } {
    const histogram = this.instruments.get(name) as Histogram;
    return { observe: (labels, value) => histogram.observe(labels as Record<string, string>, value) };
  }

  /** `hook` reads in-memory state into gauges at each scrape (no I/O: a scrape never waits on SQL). */
  onScrape(hook: () => void): void {
    this.scrapeHooks.push(hook);
  }

  /**
   * The exposition: Prometheus text, or OpenMetrics when `openMetrics`. Scrapes run one at a time
   * (the registry's content type is switched for the one that asks for OpenMetrics).
   */
  render(openMetrics: boolean): Promise<{ contentType: string; body: string }> {
    const render = async () => {
      for (const hook of this.scrapeHooks) hook();
      this.registry.setContentType(openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE);
      // prom-client renders OpenMetrics by renaming each counter in place (`x_total` → `x`):
      // their names are put back, else the next Prometheus-text scrape would lose the suffix
      const counters = this.registry.getMetricsAsArray().filter((m) => String(m.type) === 'counter');
      const names = counters.map((m) => m.name);
      try {
        return { contentType: this.registry.contentType, body: await this.registry.metrics() };
      } finally {
        counters.forEach((m, i) => ((m as { name: string }).name = names[i]));
      }
    };
    const rendered = this.rendering.then(render);
    this.rendering = rendered.catch(() => undefined);
    return rendered;
  }

  /** `task` refreshes gauges from the database every METRICS_REFRESH_MS; a failure keeps the last values. */
  onRefresh(name: string, task: RefreshTask): void {
    this.refreshTasks.push({ name, task });
  }

  /** Runs every refresh task now and then every `intervalMs` (unref'd: it never keeps the process up). */
  start(intervalMs: number, onError: (task: string, error: unknown) => void): Promise<void> {
    const run = async () => {
      await Promise.all(
        this.refreshTasks.map(({ name, task }) => task().catch((error: unknown) => onError(name, error))),
      );
    };
    const tick = () => {
      // a refresh still running (a slow database) is not stacked with another
      this.refreshing ??= run().finally(() => (this.refreshing = undefined));
    };
    this.timer = setInterval(tick, intervalMs).unref();
    tick();
    return this.refreshing!;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.refreshing;
  }
}
