/**
 * A local OTLP/HTTP collector for the tracing figures of the benchmark: accepts `POST /v1/traces`
 * (JSON, as the service's exporter sends it, or protobuf), reads the body and answers 200; it
 * keeps nothing. Every 10 s it prints the exports and bytes received (so a run can check that
 * spans arrived).
 *
 *   npx ts-node --transpile-only bench/otlp-sink.ts [--port 4318]
 *   npm run bench -- --env OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 \
 *     --env OTEL_TRACES_SAMPLER=parentbased_traceidratio --env OTEL_TRACES_SAMPLER_ARG=0.1
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string', default: '4318' } } });
let batches = 0;
let bytes = 0;
let spans = 0;

const server = createServer((req, res) => {
  let size = 0;
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (req.headers['content-type']?.includes('json')) chunks.push(chunk);
  });
  req.on('end', () => {
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    batches++;
    bytes += size;
    // a JSON export: count its spans (a cheap match, not a parse)
    if (chunks.length) spans += Buffer.concat(chunks).toString().split('"spanId"').length - 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});

server.listen(Number(values.port), '127.0.0.1', () => {
  process.stdout.write(`OTLP sink on http://127.0.0.1:${values.port} (POST /v1/traces)\n`);
});
setInterval(() => {
  process.stdout.write(`${new Date().toISOString()} exports=${batches} spans=${spans} bytes=${bytes}\n`);
}, 10_000).unref();
process.on('SIGINT', () => server.close(() => process.exit(0)));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
