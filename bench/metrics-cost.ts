/**
 * What the request metrics add to each request, measured in process (no HTTP, no database):
 *   npx ts-node --transpile-only bench/metrics-cost.ts [--ops 2000000]
 * Times, in ns per call, the work metrics on adds to a request and to each of its statements:
 * the request observer (`http_server_request_duration_seconds`: labels from the route, one
 * histogram observation) and a statement's observation (`db_client_operation_duration_seconds`:
 * its kind read from the text), for a constant text and for one built per request as the
 * service's writes build theirs. On a machine whose req/s moves by 20 % between runs, this is
 * the figure that says what metrics cost: compare it with a request's CPU time (`npm run bench`,
 * CPU ms/req).
 */
import { parseArgs } from 'node:util';
import { Metrics } from '../src/core/metrics/metrics';
import { statementKind } from '../src/core/metrics/statement-kind';
import { httpMetrics } from '../src/core/observability/http-metrics';

const { values } = parseArgs({ options: { ops: { type: 'string', default: '2000000' } } });
const ops = Number(values.ops);
if (!Number.isInteger(ops) || ops < 1000) throw new Error('--ops must be an integer >= 1000');

const metrics = new Metrics();
const requestObserver = httpMetrics(metrics);
const statements = metrics.histogram('db_client_operation_duration_seconds');
const request = {
  method: 'GET',
  route: { path: '/rest/people/:id' },
  originalUrl: '/rest/people/5b3c1c1e-0000-4000-8000-000000000001?depth=0',
} as never;
const response = { statusCode: 200 } as never;
// a select of 2 kB and a write of 4 kB, each once as one constant string and once built anew per call
const select = `SELECT "id", "name", "emails" FROM "person" WHERE "id" = $1 AND "deletedAt" IS NULL${' '.repeat(2000)}`;
const writeParts = [
  'WITH n AS (INSERT INTO "person" ("id") SELECT * FROM unnest($1::uuid[]) RETURNING *)',
  ' '.repeat(4000),
];

function time(name: string, call: (i: number) => void): void {
  for (let i = 0; i < Math.min(ops, 200_000); i++) call(i); // optimized before it is timed
  const started = process.hrtime.bigint();
  for (let i = 0; i < ops; i++) call(i);
  const ns = Number(process.hrtime.bigint() - started) / ops;
  process.stdout.write(`${name.padEnd(44)} ${ns.toFixed(0).padStart(6)} ns\n`);
}

process.stdout.write(`${ops.toLocaleString('en-US')} calls each, after a warm-up; ns per call\n`);
time('request observer (labels + observation)', (i) => requestObserver(request, response, i % 50));
time('statement, constant text', (i) =>
  statements.observe({ db_operation_name: statementKind(select) }, (i % 50) / 1000),
);
time('statement, text built per call', (i) =>
  statements.observe(
    { db_operation_name: statementKind(writeParts[0] + writeParts[1 + (i % 1)] + ` SELECT ${i % 7}`) },
    (i % 50) / 1000,
  ),
);
time('building that text alone', (i) => (writeParts[0] + writeParts[1 + (i % 1)] + ` SELECT ${i % 7}`).length);
