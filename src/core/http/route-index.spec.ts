import { ExpressAdapter } from '@nestjs/platform-express';
import { ExpressRouter, indexRoutes } from './route-index';

type Req = { method: string; url: string; headers: Record<string, string>; params?: Record<string, string> };
type Res = { answer(by: string): void; setHeader(): void; end(): void };
type Handler = (req: Req, res: Res) => void;
type Method = 'get' | 'post' | 'patch' | 'put' | 'delete' | 'all';

/** The routes Nest registers for one collection, in its order (fixed paths before `:id`). */
function collectionRoutes(c: string): [Method, string][] {
  return [
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
  ];
}

const COLLECTION_NAMES = [
  'apiKeys',
  'people',
  'companies',
  'peopleTags',
  'opportunities',
  'notes',
  'tasks',
  'noteTargets',
  'taskTargets',
  'attachments',
  'favorites',
  'webhooks',
  'workspaceMembers',
  'timelineActivities',
  'auditLogs',
  'messages',
  'messageThreads',
  'calendarEvents',
  'blocklists',
  'connectedAccounts',
  'views',
  'viewFields',
  'viewFilters',
  'viewSorts',
  'messageChannels',
  'calendarChannels',
  'pets',
  'rockets',
  'surveys',
];

/**
 * An Express app shaped like the service's: middleware, documentation routes, `collections` x 17
 * routes, the catch-all and a final 404 middleware. Every handler records which route answered.
 */
function app(collections: string[]): { router: ExpressRouter; routes: number } {
  const adapter = new ExpressAdapter();
  const hit =
    (name: string): Handler =>
    (req, res) =>
      res.answer(`${name} ${JSON.stringify(req.params ?? {})}`);
  adapter.use((_req: Req, _res: Res, next: () => void) => next());
  const routes: [Method, string][] = [
    ['get', '/rest/docs'],
    ['get', '/rest/docs/index.html'],
    ['get', '/rest/open-api/core'],
    ['get', '/rest/health'],
    ['get', '/rest/ready'],
    ['get', '/rest/search'],
    ['post', '/rest/mcp'],
    ['get', '/rest/mcp'],
    ['delete', '/rest/mcp'],
    ...collections.flatMap(collectionRoutes),
    ['all', '/rest/*path'],
  ];
  routes.forEach(([method, path], i) => adapter[method](path, hit(`${i} ${method} ${path}`)));
  adapter.use(hit('404'));
  return { router: (adapter.getInstance() as { router: ExpressRouter }).router, routes: routes.length };
}

function dispatch(router: ExpressRouter, method: string, url: string): Promise<string> {
  return new Promise((resolve) => {
    // OPTIONS that no route takes: Express answers it itself (end)
    const res: Res = { answer: resolve, setHeader: () => undefined, end: () => resolve(`automatic ${method}`) };
    router.handle({ method, url, headers: {} } as Req, res, (error) => resolve(`fell through: ${String(error)}`));
  });
}

/** Counts the patterns tried: every layer's `match` call. */
function countMatches(router: ExpressRouter): { count: number } {
  const counter = { count: 0 };
  const wrap = (r: ExpressRouter) => {
    for (const layer of r.stack as { match(path: string): unknown; handle: unknown }[]) {
      const match = layer.match.bind(layer);
      layer.match = (path: string) => (counter.count++, match(path));
    }
  };
  wrap(router);
  return counter;
}

const ID = '0b1c4f2e-3a5d-4e6f-8a9b-0c1d2e3f4a5b';

describe('indexRoutes', () => {
  it('picks the same route as the unindexed router for every kind of request', async () => {
    const plain = app(COLLECTION_NAMES.slice(0, 6)).router;
    const indexed = app(COLLECTION_NAMES.slice(0, 6)).router;
    expect(indexRoutes(indexed)).toBe(9 + 6 * 17 + 1);
    const paths = [
      '/',
      '/rest',
      '/rest/',
      '/other',
      '//rest/people',
      '/rest//people',
      '/rest/health',
      '/rest/health/',
      '/REST/Health',
      '/rest/docs',
      '/rest/people',
      '/rest/people/',
      '/rest/People',
      '/rest/PEOPLE/groupby',
      '/rest/people/groupBy',
      '/rest/people/merge',
      '/rest/people/restore',
      '/rest/people/duplicates',
      `/rest/people/${ID}`,
      `/rest/people/${ID}/`,
      `/rest/people/${ID}/restore`,
      `/rest/people/${ID}/restore/x`,
      '/rest/people/x/y/z',
      '/rest/batch/people',
      '/rest/batch/People/',
      '/rest/batch',
      '/rest/batch/nope',
      '/rest/restore/people',
      `/rest/restore/people/${ID}`,
      '/rest/restore/companies/x',
      '/rest/person',
      '/rest/nope/x',
      '/rest/peop%6Ce',
      '/rest/people%2Fx',
      '/rest/people#frag',
      '/rest/people x',
      '/rest/péople',
      'http://host/rest/people',
      '*',
      `/rest/people/${ID}?depth=0&x=/a/b`,
      '/rest/people?filter=a/b',
      '/rest/people/duplicates?depth=0',
      '/rest/search?query=a',
      '/rest/mcp',
      '/rest/apiKeys',
      '/rest/apikeys/groupby',
    ];
    const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PROPFIND'];
    for (const path of paths) {
      for (const method of methods) {
        expect(`${method} ${path} -> ${await dispatch(indexed, method, path)}`).toBe(
          `${method} ${path} -> ${await dispatch(plain, method, path)}`,
        );
      }
    }
  });

  it('tries a number of patterns per request that does not grow with the collections', async () => {
    const tried = async (collections: number, method: string, path: string) => {
      const { router } = app(COLLECTION_NAMES.slice(0, collections));
      const counter = countMatches(router); // the route layers, which the index's routers hold
      indexRoutes(router);
      await dispatch(router, method, path);
      return counter.count;
    };
    const plainTried = async (collections: number, method: string, path: string) => {
      const { router } = app(COLLECTION_NAMES.slice(0, collections));
      const counter = countMatches(router);
      await dispatch(router, method, path);
      return counter.count;
    };
    // the last collection registered is the worst case of the unindexed router
    expect(await plainTried(1, 'GET', `/rest/apiKeys/${ID}`)).toBeLessThan(30);
    expect(await plainTried(29, 'GET', `/rest/surveys/${ID}`)).toBeGreaterThan(29 * 17);
    // indexed: the two middleware layers, then only the candidates of the request's segments and
    // method (GET /c/:id: /c then /c/:id), the same with 1 or 29 collections
    const requests: [string, (c: string) => string, number][] = [
      ['GET', (c) => `/rest/${c}/${ID}`, 2],
      ['POST', (c) => `/rest/${c}/duplicates`, 2], // POST /c is registered first
      ['PATCH', (c) => `/rest/restore/${c}/${ID}`, 2],
      ['POST', (c) => `/rest/batch/${c}`, 1],
    ];
    for (const [method, path, routes] of requests) {
      expect(await tried(1, method, path(COLLECTION_NAMES[0]))).toBe(2 + routes);
      expect(await tried(29, method, path(COLLECTION_NAMES[28]))).toBe(2 + routes);
    }
  });
});
