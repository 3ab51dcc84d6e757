import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { METRIC_CATALOG, RUNTIME_METRIC_PREFIXES } from '../../src/core/metrics/metric-catalog';

/** A route template label: literal segments and `{name}` parameters, no digit, no query string. */
const ROUTE_TEMPLATE = /^\/rest(\/[a-zA-Z-]+|\/\{[a-zA-Z]+\})+$/;

/** One sample of a scrape: `name{labels} value`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  /** The metric families with their `# TYPE`. */
  types: Map<string, string>;
  samples: Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Parses the Prometheus text exposition format (0.0.4): the `# TYPE` lines and the samples. */
export function parsePrometheusText(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP')) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) {
      types.set(type[1], type[2]);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name] = value.replace(/\\(.)/g, '$1');
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return { types, samples };
}

/** The family a sample belongs to (a histogram's `_bucket`, `_sum` and `_count` are its own). */
export function familyOf(scrape: Scrape, name: string): string {
  if (scrape.types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count|total|created)$/, '');
  return scrape.types.has(base) ? base : name;
}

/** The value of the sample of `name` whose labels include `labels`; undefined when there is none. */
export function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number | undefined {
  return scrape.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}

export const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
export const hasPromtool = () => existsSync(PROMTOOL);

/** `promtool check metrics` on an exposition: its complaints (empty when it passes). */
export function promtoolCheckMetrics(text: string): string {
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  return run.status === 0 ? '' : `${run.stdout}${run.stderr}`.trim() || `exit ${run.status}`;
}

export { freePort } from './child-server';

/** Every sample is of a declared metric, with its declared labels only, each value in its bounded set. */
export function manifestProblems(scrape: Scrape): string[] {
  const problems: string[] = [];
  for (const sample of scrape.samples) {
    const family = familyOf(scrape, sample.name);
    if (RUNTIME_METRIC_PREFIXES.some((prefix) => family.startsWith(prefix))) continue;
    const declared = (METRIC_CATALOG as Record<string, { labels: Record<string, unknown> }>)[family];
    if (!declared) {
      problems.push(`undeclared metric ${family}`);
      continue;
    }
    for (const [label, value] of Object.entries(sample.labels)) {
      if (label === 'le') continue;
      const kind = declared.labels[label];
      const fits =
        kind === 'route'
          ? value === 'unmatched' || ROUTE_TEMPLATE.test(value)
          : kind === 'method'
            ? /^([A-Z]+|_OTHER)$/.test(value)
            : kind === 'status'
              ? /^[1-5]\d\d$/.test(value)
              : kind === 'pool'
                ? /^(primary|replica_\d+|direct)$/.test(value)
                : Array.isArray(kind) && kind.includes(value);
      if (kind === undefined) problems.push(`${family}: undeclared label ${label}`);
      else if (!fits) problems.push(`${family}: ${label}="${value}" is outside its declared values`);
    }
  }
  return problems;
}
