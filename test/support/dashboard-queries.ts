/**
 * The PromQL of the observability files (API.md section 20): every query of every Grafana
 * dashboard of deploy/observability/grafana/dashboards (panels and query variables) and every
 * rule of deploy/observability/alerts.yml (deploy/k8s/prometheus-rules.yaml holds the same
 * groups: test/cluster/validate-deploy.ts), and the metric names a query reads.
 * test/observability/observability-config.e2e-spec.ts checks that each query parses (promtool);
 * the metrics test that each name is in a real scrape.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export const OBSERVABILITY_DIR = join(__dirname, '..', '..', 'deploy', 'observability');
export const DASHBOARDS_DIR = join(OBSERVABILITY_DIR, 'grafana', 'dashboards');

export interface ObservabilityQuery {
  /** Where it is: `crm-requests.json: Error ratio (share of 5xx) (A)`, `alerts.yml: CrmHighErrorRatio`. */
  source: string;
  /** The expression as written (Grafana's variables such as `$instance` included: see asPromQL). */
  expr: string;
}

interface Panel {
  title?: string;
  targets?: { refId?: string; expr?: string }[];
  panels?: Panel[];
}
interface Variable {
  name: string;
  type: string;
  query?: string | { query?: string };
}

/** The dashboards' JSON, by file name. */
export function dashboards(): { file: string; dashboard: Record<string, unknown> }[] {
  return readdirSync(DASHBOARDS_DIR)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => ({ file, dashboard: JSON.parse(readFileSync(join(DASHBOARDS_DIR, file), 'utf8')) }));
}

/** The series selector of a query variable: `label_values(<selector>, <label>)` or `query_result(<query>)`. */
function variableQuery(text: string): string | undefined {
  const match = /^\s*(?:label_values\(\s*(.+?)\s*,\s*[A-Za-z_]\w*\s*\)|query_result\(\s*(.+)\s*\))\s*$/s.exec(text);
  if (!match) throw new Error(`a dashboard variable query of an unknown form: ${text}`);
  return match[1] ?? match[2];
}

/** Every expression of every dashboard panel and query variable, and of every alert and recording rule. */
export function observabilityQueries(): ObservabilityQuery[] {
  const queries: ObservabilityQuery[] = [];
  for (const { file, dashboard } of dashboards()) {
    const variables = ((dashboard.templating as { list?: Variable[] })?.list ?? []).filter((v) => v.type === 'query');
    for (const variable of variables) {
      const text = typeof variable.query === 'string' ? variable.query : (variable.query?.query ?? '');
      const expr = variableQuery(text);
      if (expr) queries.push({ source: `${file}: variable $${variable.name}`, expr });
    }
    const walk = (panels: Panel[]): void => {
      for (const panel of panels) {
        for (const target of panel.targets ?? [])
          if (target.expr) queries.push({ source: `${file}: ${panel.title} (${target.refId})`, expr: target.expr });
        walk(panel.panels ?? []);
      }
    };
    walk((dashboard.panels as Panel[]) ?? []);
  }
  const rules = parse(readFileSync(join(OBSERVABILITY_DIR, 'alerts.yml'), 'utf8'));
  for (const group of rules.groups)
    for (const rule of group.rules)
      queries.push({ source: `alerts.yml: ${rule.alert ?? rule.record}`, expr: String(rule.expr).trim() });
  return queries;
}

/** Grafana's variables that the dashboards use, and a value of each that Prometheus parses. */
const GRAFANA_VARIABLES: Record<string, string> = {
  __rate_interval: '5m',
  __interval: '1m',
  __range: '1h',
  instance: '.+',
};

/** `expr` as Prometheus would receive it from Grafana: `[$__rate_interval]` → `[5m]`, `"$instance"` → `".+"`. */
export function asPromQL(expr: string): string {
  return expr.replace(/\$(?:\{(\w+)(?::\w+)?\}|(\w+))/g, (text, braced?: string, bare?: string) => {
    const value = GRAFANA_VARIABLES[(braced ?? bare)!];
    return value ?? text;
  });
}

/** PromQL's keywords: operators, modifiers, and the literals `Inf` and `NaN`. */
const KEYWORDS = new Set(['and', 'or', 'unless', 'atan2', 'bool', 'offset', 'inf', 'nan']);
/** Keywords followed by a list of label names in parentheses. */
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);

/** The index just after the string literal that starts at `start` (double, single or back quotes). */
function afterString(expr: string, start: number): number {
  const quote = expr[start];
  let i = start + 1;
  while (i < expr.length && expr[i] !== quote) i += quote !== '`' && expr[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** The index of the `close` that ends the bracket opened at `start`, strings and nested brackets skipped. */
function closing(expr: string, start: number, close: string): number {
  const open = expr[start];
  let depth = 0;
  for (let i = start; i < expr.length;) {
    const c = expr[i];
    if (c === '"' || c === "'" || c === '`') {
      i = afterString(expr, i);
      continue;
    }
    if (c === open) depth++;
    else if (c === close && --depth === 0) return i;
    i++;
  }
  return expr.length;
}

/**
 * The metric names an expression reads, in order of first appearance, each once: histograms with
 * the `_bucket`, `_sum` or `_count` suffix as written, names given as `{__name__="..."}`
 * included. Not names: functions and aggregations (an identifier before `(`, or before
 * `by (`/`without (`), keywords, label names (in `{...}` and in the lists of `by`, `without`,
 * `on`, `ignoring`, `group_left` and `group_right`), strings, numbers, durations (`[5m]`,
 * `offset 1h`), Grafana's variables (`$instance`).
 */
export function metricNamesIn(expr: string): string[] {
  const names = new Set<string>();
  let i = 0;
  while (i < expr.length) {
    const c = expr[i];
    const rest = expr.slice(i);
    if (c === '#') {
      const end = expr.indexOf('\n', i); // a comment, to the end of its line
      i = end < 0 ? expr.length : end;
    } else if (c === '"' || c === "'" || c === '`') {
      i = afterString(expr, i);
    } else if (c === '$') {
      i += /^\$(\{[^}]*\}|\w+)?/.exec(rest)![0].length;
    } else if (c === '{') {
      const end = closing(expr, i, '}');
      const named = /(?:^|[{,\s])__name__\s*=\s*(["'`])([^"'`]+)\1/.exec(expr.slice(i, end));
      if (named) names.add(named[2]);
      i = end + 1;
    } else if (c === '[') {
      i = closing(expr, i, ']') + 1;
    } else if (/[0-9.]/.test(c)) {
      i += /^[0-9.][0-9A-Za-z_.]*/.exec(rest)![0].length; // a number (1e3, 0x1f) or a duration (1h30m)
    } else if (/[A-Za-z_:]/.test(c)) {
      const word = /^[A-Za-z_:][A-Za-z0-9_:]*/.exec(rest)![0];
      i += word.length;
      const next = i + /^\s*/.exec(expr.slice(i))![0].length;
      const keyword = word.toLowerCase();
      if (LABEL_LISTS.has(keyword)) {
        if (expr[next] === '(') i = closing(expr, next, ')') + 1;
      } else if (!KEYWORDS.has(keyword) && expr[next] !== '(' && !/^\s*(by|without)\s*\(/i.test(expr.slice(i))) {
        names.add(word); // not a function nor an aggregation (`sum by (job) (...)`)
      }
    } else {
      i++;
    }
  }
  return [...names];
}
