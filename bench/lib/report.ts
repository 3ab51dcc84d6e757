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
  /** CPU time PostgreSQL's processes used during the measured run, per request (ms; local database only). */
  dbCpuMsPerRequest?: number;
}

/** A scenario x target line of the table: medians over rounds (errors summed, RSS maximum). */
export interface SummaryRow {
  scenario: string;
  target: string;
  /** n/a: a peer that cannot serve the scenario. */
  status: 'ok' | 'did not start' | 'failed' | 'n/a';
  note?: string;
  rounds: number;
  reqPerSec?: number;
  recordsPerSec?: number;
  p50?: number;
  p99?: number;
  errors?: number;
  maxRssMb?: number;
  cpuMsPerRequest?: number;
  dbCpuMsPerRequest?: number;
  /** This target's req/s over the baseline's (medians): 0.5 = half the baseline's throughput. */
  ratio?: number;
  /** This target's p50 over the baseline's p50. */
  p50Ratio?: number;
  /** This target's req/s over the peer's (medians), when a peer ran the scenario. */
  peerRatio?: number;
  /** A write the peer makes without the event rows the service and the baseline write. */
  peerWritesLess?: boolean;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function summarize(
  runs: RunResult[],
  scenarios: { name: string; recordsPerRequest?: number; writes?: boolean; peer?: unknown }[],
  targets: { name: string; kind?: string; status: 'ok' | 'did not start'; note?: string }[],
): SummaryRow[] {
  const rows: SummaryRow[] = [];
  const peer = targets.find((t) => t.kind === 'peer');
  for (const scenario of scenarios) {
    const base = runs.filter((r) => r.scenario === scenario.name && r.target === 'baseline');
    const baseRps = base.length ? median(base.map((r) => r.reqPerSec)) : undefined;
    const baseP50 = base.length ? median(base.map((r) => r.p50)) : undefined;
    const peerRuns = peer ? runs.filter((r) => r.scenario === scenario.name && r.target === peer.name) : [];
    const peerRps = peerRuns.length ? median(peerRuns.map((r) => r.reqPerSec)) : undefined;
    for (const target of targets) {
      const mine = runs.filter((r) => r.scenario === scenario.name && r.target === target.name);
      if (target.kind === 'peer' && !scenario.peer) {
        rows.push({
          scenario: scenario.name,
          target: target.name,
          status: 'n/a',
          note: 'the peer has no equivalent request',
          rounds: 0,
        });
        continue;
      }
      if (target.status !== 'ok' || mine.length === 0) {
        rows.push({
          scenario: scenario.name,
          target: target.name,
          status: target.status === 'ok' ? 'failed' : target.status,
          note: target.note,
          rounds: 0,
        });
        continue;
      }
      const rps = median(mine.map((r) => r.reqPerSec));
      const p50 = median(mine.map((r) => r.p50));
      const rss = mine.map((r) => r.maxRssMb).filter((v): v is number => v !== undefined);
      const cpu = mine.map((r) => r.cpuMsPerRequest).filter((v): v is number => v !== undefined);
      const dbCpu = mine.map((r) => r.dbCpuMsPerRequest).filter((v): v is number => v !== undefined);
      rows.push({
        scenario: scenario.name,
        target: target.name,
        status: 'ok',
        rounds: mine.length,
        reqPerSec: rps,
        recordsPerSec:
          scenario.recordsPerRequest && scenario.recordsPerRequest > 1 ? rps * scenario.recordsPerRequest : undefined,
        p50,
        p99: median(mine.map((r) => r.p99)),
        errors: mine.reduce((n, r) => n + r.non2xx + r.errors, 0),
        maxRssMb: rss.length ? Math.max(...rss) : undefined,
        cpuMsPerRequest: cpu.length ? median(cpu) : undefined,
        dbCpuMsPerRequest: dbCpu.length ? median(dbCpu) : undefined,
        ratio: baseRps ? rps / baseRps : undefined,
        p50Ratio: baseP50 ? p50 / baseP50 : undefined,
        peerRatio: peerRps ? rps / peerRps : undefined,
        peerWritesLess: target.kind === 'peer' && scenario.writes === true,
      });
    }
  }
  return rows;
}

const fmt = (v: number | undefined, digits = 0) =>
  v === undefined ? '' : v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const HEADERS = [
  'scenario',
  'target',
  'req/s',
  'records/s',
  'p50 ms',
  'p99 ms',
  'errors',
  'max RSS MB',
  'CPU ms/req',
  'DB CPU ms/req',
  'ratio',
];

/** The columns: with a peer, one more ratio (req/s over the peer's). */
function headers(peer?: string): string[] {
  return peer ? [...HEADERS, `vs ${peer}`] : HEADERS;
}

/** The footnote of the rows a peer marks with `*`. */
export const PEER_WRITES_NOTE =
  '* the peer writes the record alone; the service and the baseline also write its audit-log, timeline and webhook-outbox rows in the same transaction';

function cells(row: SummaryRow, peer?: string): string[] {
  const extra = peer ? 1 : 0;
  const target = row.peerWritesLess ? `${row.target}*` : row.target;
  if (row.status !== 'ok') return [row.scenario, target, row.status, ...Array<string>(8 + extra).fill('')];
  return [
    row.scenario,
    target,
    fmt(row.reqPerSec, row.reqPerSec! < 100 ? 1 : 0),
    fmt(row.recordsPerSec),
    fmt(row.p50, 1),
    fmt(row.p99, 1),
    fmt(row.errors),
    fmt(row.maxRssMb),
    fmt(row.cpuMsPerRequest, 2),
    fmt(row.dbCpuMsPerRequest, 2),
    row.target === 'baseline' ? '1' : fmt(row.ratio, 2),
    ...(peer ? [row.target === peer ? '1' : row.peerRatio === undefined ? 'n/a' : fmt(row.peerRatio, 2)] : []),
  ];
}

/** The table aligned for a terminal (`peer`: the name of the peer target, for its ratio column). */
export function textTable(rows: SummaryRow[], peer?: string): string {
  const names = headers(peer);
  const body = rows.map((row) => cells(row, peer));
  const widths = names.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ');
  const out = [line(names), widths.map((w) => '-'.repeat(w)).join('  ')];
  let last = '';
  for (let i = 0; i < body.length; i++) {
    if (last && rows[i].scenario !== last) out.push('');
    last = rows[i].scenario;
    out.push(line(body[i]));
  }
  if (rows.some((r) => r.peerWritesLess)) out.push('', PEER_WRITES_NOTE);
  return out.join('\n');
}

/** The same table in Markdown (for docs/benchmarks.md). */
export function markdownTable(rows: SummaryRow[], peer?: string): string {
  const names = headers(peer);
  const out = [`| ${names.join(' | ')} |`, `|${names.map((_, i) => (i < 2 ? '---' : '---:')).join('|')}|`];
  for (const row of rows) out.push(`| ${cells(row, peer).join(' | ')} |`);
  if (rows.some((r) => r.peerWritesLess)) out.push('', PEER_WRITES_NOTE);
  return out.join('\n');
}
