import { Client } from 'pg';
import { CapturedStatement, NOISE } from './sql-capture';
import { median } from './report';

/**
 * The session settings of the service's connections (src/core/database/data-source-options.ts):
 * the statements are explained in a session of their own with the same ones (JIT off changes
 * the time of big statements). Keep in step with the service, as baseline-server.ts.
 */
export const SERVICE_SESSION_OPTIONS = '-c TimeZone=UTC -c jit=off';

/** A connection for explaining, with the service's session settings. */
export async function explainConnection(url: string): Promise<Client> {
  const client = new Client({
    connectionString: url,
    application_name: 'crm-bench-explain',
    options: SERVICE_SESSION_OPTIONS,
  });
  await client.connect();
  return client;
}

/** One statement the service sent, run again under EXPLAIN (ANALYZE, BUFFERS) with its own bound values. */
export interface ExplainedStatement {
  sql: string;
  params: (string | null)[];
  /** Medians over `runs` executions (after one unmeasured one). */
  executionMs: number;
  planningMs: number;
  runs: number;
  /** Shared buffers of the whole plan (hit in PostgreSQL's cache, read from the OS). */
  sharedHit: number;
  sharedRead: number;
  /** Every sequential scan of the plan: relation, rows it returned, loops. */
  seqScans: string[];
  /** The text plan of one more execution. */
  plan: string;
}

/** The statements of one request of a scenario, explained. */
export interface ExplainResult {
  scenario: string;
  request: string;
  statements: ExplainedStatement[];
  /** Statements left out (no bound values captured, not a read). */
  skipped: string[];
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode, out: string[] = []): string[] {
  if (node['Node Type'] === 'Seq Scan')
    out.push(`${node['Relation Name']} (${node['Actual Rows']} rows x ${node['Actual Loops']} loops)`);
  for (const child of node.Plans ?? []) seqScans(child, out);
  return out;
}

/** A statement the benchmark may run again: a read (EXPLAIN ANALYZE executes it). */
const READ = /^\s*(SELECT|WITH(?![\s\S]*\b(INSERT|UPDATE|DELETE)\b))/i;

/** EXPLAIN (ANALYZE, BUFFERS) of `sql` with `params`: one unmeasured execution, then `runs` measured ones. */
export async function explainStatement(
  db: Client,
  sql: string,
  params: (string | null)[],
  runs = 5,
): Promise<ExplainedStatement> {
  const explainJson = async () => {
    const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
    return (rows[0]['QUERY PLAN'] as { Plan: PlanNode; 'Planning Time': number; 'Execution Time': number }[])[0];
  };
  await explainJson();
  const samples = [];
  for (let i = 0; i < runs; i++) samples.push(await explainJson());
  const last = samples[samples.length - 1];
  const text = (await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params)).rows
    .map((r) => r['QUERY PLAN'] as string)
    .join('\n');
  return {
    sql,
    params,
    executionMs: median(samples.map((s) => s['Execution Time'])),
    planningMs: median(samples.map((s) => s['Planning Time'])),
    runs,
    sharedHit: last.Plan['Shared Hit Blocks'] ?? 0,
    sharedRead: last.Plan['Shared Read Blocks'] ?? 0,
    seqScans: seqScans(last.Plan),
    plan: text,
  };
}

/** Explains the statements a request sent (the API key lookup left out). */
export async function explainCaptured(
  db: Client,
  scenario: string,
  request: string,
  captured: CapturedStatement[],
): Promise<ExplainResult> {
  const result: ExplainResult = { scenario, request, statements: [], skipped: [] };
  for (const statement of captured) {
    if (NOISE.test(statement.sql)) continue;
    if (!statement.params || !READ.test(statement.sql)) {
      result.skipped.push(statement.sql);
      continue;
    }
    result.statements.push(await explainStatement(db, statement.sql, statement.params));
  }
  return result;
}

const ms = (v: number) => `${v.toFixed(1)} ms`;

/** The section printed after the table: per request, each statement's SQL time; then the plans of each scenario's first request. */
export function explainReport(results: ExplainResult[], withPlans: boolean): string {
  if (results.length === 0) return '';
  const out = [
    'SQL time: EXPLAIN (ANALYZE, BUFFERS) of the statements the service sent, with their values, at bench size (median of 5 executions)',
  ];
  for (const r of results) {
    const total = r.statements.reduce((n, s) => n + s.executionMs + s.planningMs, 0);
    out.push(`  ${r.scenario}: ${r.request}`);
    r.statements.forEach((s, i) => {
      out.push(
        `    [${i + 1}] execution ${ms(s.executionMs)} + planning ${ms(s.planningMs)}, buffers hit ${s.sharedHit} read ${s.sharedRead}` +
          `, ${s.seqScans.length ? `seq scan: ${s.seqScans.join(', ')}` : 'no seq scan'}`,
      );
      out.push(`        ${s.sql.length > 220 ? `${s.sql.slice(0, 220)}...` : s.sql}`);
    });
    if (r.statements.length > 1) out.push(`    sum of statements: ${ms(total)} (statements sent in parallel overlap)`);
    for (const sql of r.skipped) out.push(`    not explained: ${sql.slice(0, 160)}`);
  }
  if (withPlans) {
    const seen = new Set<string>();
    for (const r of results) {
      if (seen.has(r.scenario)) continue;
      seen.add(r.scenario);
      r.statements.forEach((s, i) => {
        out.push(
          '',
          `plan of ${r.scenario} [${i + 1}] (${r.request}):`,
          ...s.plan.split('\n').map((line) => `  ${line}`),
        );
      });
    }
  }
  return out.join('\n');
}
