/**
 * Micro-benchmark of the Express route lookup (src/core/http/route-index.ts): the time for the
 * router to reach the handler of `GET /rest/<collection>/:id`, with the routes Nest registers for
 * 1 collection (~27 routes with the fixed ones) and for 29 (~500 routes), without and with the
 * index. The last collection registered is the unindexed router's worst case, the first its best.
 *
 *   npx ts-node --transpile-only test/bench/route-lookup.ts
 */
import { ExpressAdapter } from '@nestjs/platform-express';
import { ExpressRouter, indexRoutes } from '../../src/core/http/route-index';

const ID = '0b1c4f2e-3a5d-4e6f-8a9b-0c1d2e3f4a5b';
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete' | 'all';

function app(collections: number): { router: ExpressRouter; routes: number } {
  const adapter = new ExpressAdapter();
  const routes: [Method, string][] = [
    ['get', '/rest/docs'],
    ['get', '/rest/open-api/core'],
    ['get', '/rest/health'],
    ['get', '/rest/search'],
    ['post', '/rest/mcp'],
  ];
  for (let i = 0; i < collections; i++) {
    const c = `collection${i}`;
    routes.push(
      ['get', `/rest/${c}/groupBy`],
      ['patch', `/rest/${c}/merge`],
      ['patch', `/rest/${c}/restore`],
      ['patch', `/rest/restore/${c}`],
      ['patch', `/rest/restore/${c}/:id`],
      ['patch', `/rest/${c}`],
      ['put', `/rest/${c}`],
      ['delete', `/rest/${c}`],
      ['put', `/rest/${c}/:id`],
      ['get', `/rest/${c}`],
      ['post', `/rest/${c}`],
      ['post', `/rest/batch/${c}`],
      ['post', `/rest/${c}/duplicates`],
      ['get', `/rest/${c}/:id`],
      ['patch', `/rest/${c}/:id`],
      ['delete', `/rest/${c}/:id`],
      ['patch', `/rest/${c}/:id/restore`],
    );
  }
  routes.push(['all', '/rest/*path']);
  for (const [method, path] of routes)
    adapter[method](path, (_req: unknown, res: { answered: number }) => void res.answered++);
  return { router: (adapter.getInstance() as { router: ExpressRouter }).router, routes: routes.length };
}

function perRequest(router: ExpressRouter, url: string): number {
  const res = { answered: 0 };
  const run = (n: number) => {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) router.handle({ method: 'GET', url, headers: {} } as never, res, () => undefined);
    return Number(process.hrtime.bigint() - t0) / 1000 / n;
  };
  run(20_000);
  const samples = [run(50_000), run(50_000), run(50_000), run(50_000), run(50_000)].sort((a, b) => a - b);
  if (res.answered === 0) throw new Error('no route answered');
  return samples[2];
}

const rows: string[] = ['| routes | collection | unindexed µs/request | indexed µs/request |', '|---:|---|---:|---:|'];
for (const collections of [1, 29]) {
  for (const which of collections > 1 ? ['first', 'last'] : ['only']) {
    const c = which === 'last' ? collections - 1 : 0;
    const url = `/rest/collection${c}/${ID}?depth=0`;
    const plain = app(collections);
    const indexed = app(collections);
    indexRoutes(indexed.router);
    rows.push(
      `| ${plain.routes} | ${which} | ${perRequest(plain.router, url).toFixed(2)} | ${perRequest(indexed.router, url).toFixed(2)} |`,
    );
  }
}
process.stdout.write(`route lookup of GET /rest/<collection>/:id (median of 5 x 50,000)\n${rows.join('\n')}\n`);
