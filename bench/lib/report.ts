/** One measured run of one scenario against one target. */
export interface RunResult {
  scenario: string;
  target: string;
  round: number;
  reqPerSec: number;
  p50: number;
  p99: number;
  non2xx: number;
  /** Connection errors, timeouts included (autocannon counts a timeout as an error too). */
  errors: number;
  timeouts: number;
  requests: number;
  maxRssMb?: number;
  /** CPU time the target process used during the measured run, per request (ms). */
  cpuMsPerRequest?: number;
}

/** A scenario x target line of the table: medians over rounds (errors summed, RSS maximum). */
export interface SummaryRow {
  scenario: string;
  target: string;
  status: 'ok' | 'did not start' | 'failed';
  note?: string;
  rounds: number;
  reqPerSec?: number;
  recordsPerSec?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  maxRssMb?: number;
  cpuMsPerRequest?: number;
  /** This target's req/s over the baseline's (medians): 0.5 = half the baseline's throughput. */
  ratio?: number;
  /** This target's p50 over the baseline's p50. */
  p50Ratio?: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(
  runs: RunResult[],
  scenarios: { name: string; recordsPerRequest?: number }[],
  targets: { name: string; status: SummaryRow['status']; note?: string }[],
): SummaryRow[] {
  const rows: SummaryRow[] = [];
  for (const scenario of scenarios) {
    const base = runs.filter((r) => r.scenario === scenario.name && r.target === 'baseline');
    const baseRps = base.length ? median(base.map((r) => r.reqPerSec)) : undefined;
    const baseP50 = base.length ? median(base.map((r) => r.p50)) : undefined;
    for (const target of targets) {
      const mine = runs.filter((r) => r.scenario === scenario.name && r.target === target.name);
      if (target.status !== 'ok' || mine.length === 0) {
        rows.push({ scenario: scenario.name, target: target.name, status: target.status === 'ok' ? 'failed' : target.status, note: target.note, rounds: 0 });
        continue;
      }
      const rps = median(mine.map((r) => r.reqPerSec));
      const p50 = median(mine.map((r) => r.p50));
      const rss = mine.map((r) => r.maxRssMb).filter((v): v is number => v !== undefined);
      const cpu = mine.map((r) => r.cpuMsPerRequest).filter((v): v is number => v !== undefined);
      rows.push({
        scenario: scenario.name,
        target: target.name,
        status: 'ok',
        rounds: mine.length,
        reqPerSec: rps,
        recordsPerSec: scenario.recordsPerRequest && scenario.recordsPerRequest > 1 ? rps * scenario.recordsPerRequest : undefined,
        p50,
        p99: median(mine.map((r) => r.p99)),
        errors: mine.reduce((n, r) => n + r.non2xx + r.errors, 0),
        maxRssMb: rss.length ? Math.max(...rss) : undefined,
        cpuMsPerRequest: cpu.length ? median(cpu) : undefined,
        ratio: baseRps ? rps / baseRps : undefined,
        p50Ratio: baseP50 ? p50 / baseP50 : undefined,
      });
    }
  }
  return rows;
}

const fmt = (v: number | undefined, digits = 0) => (v === undefined ? '' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }));

const HEADERS = ['scenario', 'target', 'req/s', 'records/s', 'p50 ms', 'p99 ms', 'errors', 'max RSS MB', 'CPU ms/req', 'ratio'];

function cells(row: SummaryRow): string[] {
  if (row.status !== 'ok') return [row.scenario, row.target, row.status, '', '', '', '', '', '', ''];
  return [
    row.scenario,
    row.target,
    fmt(row.reqPerSec, row.reqPerSec! < 100 ? 1 : 0),
    fmt(row.recordsPerSec),
    fmt(row.p50, 1),
    fmt(row.p99, 1),
    fmt(row.errors),
    fmt(row.maxRssMb),
    fmt(row.cpuMsPerRequest, 2),
    row.target === 'baseline' ? '1' : fmt(row.ratio, 2),
  ];
}

/** The table aligned for a terminal. */
export function textTable(rows: SummaryRow[]): string {
  const body = rows.map(cells);
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const right = new Set([2, 3, 4, 5, 6, 7, 8, 9]);
  const line = (r: string[]) => r.map((c, i) => (right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  const out = [line(HEADERS), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last = '';
  for (let i = 0; i < body.length; i++) {
    if (last && rows[i].scenario !== last) out.push('');
    last = rows[i].scenario;
    out.push(line(body[i]));
  }
  return out.join('\n');
}

/** The same table in Markdown (for the README). */
export function markdownTable(rows: SummaryRow[]): string {
  const out = [`| ${HEADERS.join(' | ')} |`, `|${HEADERS.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) out.push(`| ${cells(row).join(' | ')} |`);
  return out.join('\n');
}
