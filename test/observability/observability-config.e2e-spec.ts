/**
 * The observability files (API.md section 20) without a Prometheus or a Grafana running:
 * promtool (Debian's `prometheus` package) checks deploy/observability/prometheus.yml, the alert
 * rules of alerts.yml and of deploy/k8s/prometheus-rules.yaml, runs the rule unit tests of
 * alerts.test.yml, and parses every dashboard query; the dashboards read only declared metrics,
 * each on the `$instance` variable. No server starts: the suite takes a second or two.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { stringify, parse } from 'yaml';
import { METRIC_CATALOG } from '../../src/core/metrics/metric-catalog';
import { asPromQL, dashboards, metricNamesIn, observabilityQueries } from '../support/dashboard-queries';
import { announceSkippedSuite } from '../support/skipped-suites';

const ROOT = join(__dirname, '..', '..');
const PROMTOOL = process.env.PROMTOOL ?? 'promtool';
const readYaml = (path: string) => parse(readFileSync(join(ROOT, path), 'utf8'));

describe('metricNamesIn', () => {
  it.each([
    ['up', ['up']],
    ['crm_change_streams_open{instance=~"$instance"}', ['crm_change_streams_open']],
    [
      'histogram_quantile(0.99, sum by (http_route, le) (rate(http_server_request_duration_seconds_bucket{instance=~"$instance", http_route!="unmatched"}[$__rate_interval])))',
      ['http_server_request_duration_seconds_bucket'],
    ],
    [
      '(sum(rate(a_total{code=~"5.."}[5m])) or vector(0)) / sum without (code) (rate(a_total[5m] offset 1h))',
      ['a_total'],
    ],
    ['sum(x_sum) by (job) / on (job) group_left (pool) y_count > bool 0', ['x_sum', 'y_count']],
    ['a and b unless c or d', ['a', 'b', 'c', 'd']],
    ['max_over_time(deriv(job:feed:rate5m[10m:1m])[1h:]) @ start()', ['job:feed:rate5m']],
    ['{__name__="process_cpu_seconds_total", instance="x"} * 1e3 + Inf - NaN + 0x1f', ['process_cpu_seconds_total']],
    ['count_values("le", build_info) # a comment naming not_a_metric', ['build_info']],
    ['label_replace(up, "host", "$1", "instance", "(.*):.*")', ['up']],
    ['topk(5, nodejs_heap_size_used_bytes{instance="}"})', ['nodejs_heap_size_used_bytes']],
    ['sum(rate(a[5m])) by (le) / sum(rate(a[5m]))', ['a']],
  ])('%s', (expr, names) => {
    expect(metricNamesIn(expr)).toEqual(names);
  });
});

describe('Grafana dashboards (deploy/observability/grafana/dashboards)', () => {
  const all = dashboards();

  it('one per subject, each with a unique uid, the data source and $instance variables, panels on both', () => {
    expect(all.map((d) => d.file)).toEqual([
      'crm-change-feed.json',
      'crm-database.json',
      'crm-imports.json',
      'crm-requests.json',
      'crm-runtime.json',
      'crm-webhooks.json',
    ]);
    expect(new Set(all.map((d) => d.dashboard.uid)).size).toBe(all.length);
    for (const { file, dashboard } of all) {
      const variables = (dashboard.templating as { list: { name: string; type: string }[] }).list;
      expect([file, variables.map((v) => `${v.name}:${v.type}`)]).toEqual([
        file,
        ['datasource:datasource', 'instance:query'],
      ]);
      const panels = dashboard.panels as { id: number; datasource: unknown; targets: unknown[] }[];
      expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
      for (const panel of panels) {
        expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
        expect(panel.targets.length).toBeGreaterThan(0);
      }
    }
  });

  it('every series a panel reads is filtered by $instance', () => {
    const unfiltered: string[] = [];
    for (const { source, expr } of observabilityQueries().filter((q) => !q.source.startsWith('alerts.yml'))) {
      if (source.includes(': variable $')) continue;
      for (const name of metricNamesIn(expr))
        for (const [, matchers] of expr.matchAll(new RegExp(`\\b${name}(\\{[^}]*\\})?`, 'g')))
          if (!matchers?.includes('instance=~"$instance"')) unfiltered.push(`${source}: ${name}${matchers ?? ''}`);
    }
    expect(unfiltered).toEqual([]);
  });

  it('every metric a query reads is declared (metric-catalog.ts) or one of prom-client default metrics', async () => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    const declared = new Set<string>();
    const add = (name: string, type: string) => {
      declared.add(name);
      if (type === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) declared.add(`${name}${suffix}`);
    };
    for (const [name, declaration] of Object.entries(METRIC_CATALOG)) add(name, declaration.type);
    for (const metric of await registry.getMetricsAsJSON()) add(metric.name, String(metric.type));
    const queries = observabilityQueries();
    expect(queries.length).toBeGreaterThan(40);
    const unknown = queries.flatMap(({ source, expr }) =>
      metricNamesIn(expr)
        .filter((name) => !declared.has(name))
        .map((name) => `${source}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});

// CI installs Debian's prometheus package (promtool) and sets REQUIRE_PROMTOOL so that a missing
// promtool fails instead of skipping; elsewhere a missing promtool skips these, named loudly at the
// end of the run.
const hasPromtool = spawnSync(PROMTOOL, ['--version']).status === 0;
const runs = hasPromtool || !!process.env.REQUIRE_PROMTOOL;
if (!runs)
  announceSkippedSuite(
    'observability-config',
    `no promtool (${PROMTOOL})`,
    'sudo apt-get install -y prometheus (or PROMTOOL=/path/to/promtool npm test)',
  );
(runs ? describe : describe.skip)('promtool on deploy/observability and deploy/k8s/prometheus-rules.yaml', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'crm-promtool-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs promtool; its output is part of the failure message. */
  function promtool(...args: string[]): { status: number | null; output: string } {
    const run = spawnSync(PROMTOOL, args, { cwd: ROOT, encoding: 'utf8' });
    return { status: run.status, output: `promtool ${args.join(' ')}\n${run.stdout}${run.stderr}${run.error ?? ''}` };
  }
  const passes = (...args: string[]) => {
    const run = promtool(...args);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.any(String) });
    return run.output;
  };

  it('prometheus.yml is a valid configuration (with its rule file)', () => {
    expect(passes('check', 'config', 'deploy/observability/prometheus.yml')).toMatch(/SUCCESS: 5 rules found/);
  });

  it('the alert rules of alerts.yml and of the PrometheusRule pass promtool check rules, and are the same', () => {
    passes('check', 'rules', 'deploy/observability/alerts.yml');
    const operatorRules = readYaml('deploy/k8s/prometheus-rules.yaml');
    expect(operatorRules.spec.groups).toEqual(readYaml('deploy/observability/alerts.yml').groups);
    const extracted = join(dir, 'prometheus-rules.yml');
    writeFileSync(extracted, stringify({ groups: operatorRules.spec.groups }));
    expect(passes('check', 'rules', extracted)).toMatch(/SUCCESS: 5 rules found/);
  });

  it('the rule unit tests pass, each alert tested firing and not firing', () => {
    passes('test', 'rules', 'deploy/observability/alerts.test.yml');
    const alerts = readYaml('deploy/observability/alerts.yml').groups.flatMap((g: { rules: { alert: string }[] }) =>
      g.rules.map((r) => r.alert),
    );
    type Case = { alertname: string; exp_alerts: unknown[] };
    const cases: Case[] = readYaml('deploy/observability/alerts.test.yml').tests.flatMap(
      (t: { alert_rule_test?: Case[] }) => t.alert_rule_test ?? [],
    );
    for (const alert of alerts) {
      const own = cases.filter((c) => c.alertname === alert);
      expect([alert, own.some((c) => c.exp_alerts.length > 0), own.some((c) => c.exp_alerts.length === 0)]).toEqual([
        alert,
        true,
        true,
      ]);
    }
  });

  it('every dashboard query parses (as a recording rule of promtool check rules)', () => {
    const check = (queries: { source: string; expr: string }[]) => {
      const file = join(dir, `queries-${queries.length}.yml`);
      const groups = queries.map(({ source, expr }, i) => ({
        name: source,
        rules: [{ record: `dashboard_query_${i}`, expr: asPromQL(expr) }],
      }));
      writeFileSync(file, stringify({ groups }));
      return promtool('check', 'rules', file);
    };
    // a check that cannot fail proves nothing: a query with an unclosed parenthesis is refused
    const broken = check([{ source: 'broken', expr: 'sum(rate(http_server_request_duration_seconds_count[5m])' }]);
    expect(broken.status).not.toBe(0);
    const queries = observabilityQueries().filter((q) => !q.source.startsWith('alerts.yml'));
    const run = check(queries);
    expect({ status: run.status, output: run.output }).toEqual({ status: 0, output: expect.any(String) });
    expect(run.output).toContain(`SUCCESS: ${queries.length} rules found`);
  });
});
