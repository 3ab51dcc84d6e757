import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

/** The parts of Express 5's router (the `router` package) that the index reads. */
interface ExpressRoute {
  path: unknown;
  methods: Record<string, boolean>;
  _handlesMethod(method: string): boolean;
}
interface ExpressLayer {
  route?: ExpressRoute;
}
type Next = (error?: unknown) => void;
type Handle = (req: { method: string; url: string }, res: unknown, next: Next) => void;
/** A router: `handle` walks `stack` in order (path match, then method) as Express does. */
export interface ExpressRouter {
  stack: ExpressLayer[];
  handle: Handle;
  use(handler: Handle): unknown;
}

/** Index nodes with more layers than this are split on the next path segment. */
const LEAF_SIZE = 8;
/** Path segments looked at, at most. */
const MAX_DEPTH = 4;
/** A segment the index can compare with a request's: no parameter, wildcard, group or escape. */
const LITERAL_SEGMENT = /^[A-Za-z0-9_.~%-]+$/;
/**
 * Paths the index does not interpret (the router's own parser would read them differently: `#`,
 * spaces, non-ASCII, absolute-form URLs): they walk every route of the run, as before.
 */
const UNINDEXED_PATH = /[^\x21-\x7e]|#/;

interface Entry {
  order: number;
  layer: ExpressLayer;
  /** The leading literal segments of the route's path, lower-cased. */
  literals: string[];
}

interface IndexNode {
  /** By the (lower-cased) path segment at this depth; `other` for any segment not listed, or none. */
  children?: Map<string, IndexNode>;
  other?: IndexNode;
  /** Leaf: the routes that may match, by request method (GET, POST...), and all of them for any other method. */
  byMethod?: Map<string, Handle>;
  all?: Handle;
}

/** The literal segments a route's path starts with (`/rest/people/:id` → rest, people). */
function literalsOf(path: string): string[] {
  const literals: string[] = [];
  for (const segment of path.split('/').slice(1)) {
    if (!LITERAL_SEGMENT.test(segment)) break;
    literals.push(segment.toLowerCase());
  }
  return literals;
}

/**
 * Replaces, in an Express router's stack, each run of consecutive route layers by one layer that
 * looks the request's leading path segments and method up in an index and hands the request to a
 * router holding only the routes that could match it, in their original order. Express otherwise
 * tries every route's pattern in order until one matches: with 37 collections of 17 routes, a
 * `GET /rest/people/:id` tried ~300 patterns before its own; now it tries 2 or 3, however many
 * collections there are.
 *
 * Precedence is unchanged: a route left out of a request's candidates has a literal segment that
 * differs from the request's (compared lower-cased, so never left out when it would match), and
 * the candidates keep the stack order, so `/people/duplicates` still comes before `/people/:id`
 * and the catch-all `/*path` after every collection. HEAD and OPTIONS (whose handling in Express
 * depends on the routes that do not take them) and paths the router would parse differently
 * walk the whole run. Returns the number of routes indexed.
 */
export function indexRoutes(router: ExpressRouter): number {
  const makeRouter = (layers: ExpressLayer[]): Handle => {
    if (layers.length === 0) return (_req, _res, next) => next();
    // the same router (options, app.param() callbacks, handle()) over these layers only
    const sub = Object.create(router) as ExpressRouter;
    sub.stack = layers;
    return (req, res, next) => sub.handle(req, res, next);
  };
  let indexed = 0;
  const stack = router.stack;
  for (let start = 0; start < stack.length; start++) {
    let end = start;
    const entries: Entry[] = [];
    for (; end < stack.length; end++) {
      const path = stack[end].route?.path;
      if (typeof path !== 'string') break;
      entries.push({ order: end, layer: stack[end], literals: literalsOf(path) });
    }
    if (entries.length <= LEAF_SIZE) {
      start = end;
      continue;
    }
    const root = buildNode(entries, 0, makeRouter);
    const walkAll = makeRouter(entries.map((e) => e.layer));
    const routeIndex: Handle = (req, res, next) => {
      const url = req.url;
      let stop = url.indexOf('?');
      if (stop < 0) stop = url.length;
      if (url.charCodeAt(0) !== 47 || UNINDEXED_PATH.test(url.slice(0, stop))) return walkAll(req, res, next);
      let node = root;
      let from = 1;
      while (node.children) {
        let slash = url.indexOf('/', from);
        if (slash < 0 || slash > stop) slash = stop;
        const child = from <= stop ? node.children.get(url.slice(from, slash).toLowerCase()) : undefined;
        node = child ?? node.other!;
        from = slash + 1;
      }
      (node.byMethod!.get(req.method) ?? node.all!)(req, res, next);
    };
    router.use(routeIndex);
    stack.splice(start, entries.length, stack.pop()!);
    indexed += entries.length;
  }
  return indexed;
}

function buildNode(entries: Entry[], depth: number, makeRouter: (layers: ExpressLayer[]) => Handle): IndexNode {
  if (entries.length > LEAF_SIZE && depth < MAX_DEPTH) {
    const keyed = new Map<string, Entry[]>();
    const open: Entry[] = [];
    for (const entry of entries) {
      if (entry.literals.length <= depth) open.push(entry);
      else if (keyed.has(entry.literals[depth])) keyed.get(entry.literals[depth])!.push(entry);
      else keyed.set(entry.literals[depth], [entry]);
    }
    if (keyed.size > 0) {
      const children = new Map<string, IndexNode>();
      for (const [segment, list] of keyed) {
        // a route with a parameter here matches any segment: it stays a candidate, in its place
        const candidates = [...list, ...open].sort((a, b) => a.order - b.order);
        children.set(segment, buildNode(candidates, depth + 1, makeRouter));
      }
      return { children, other: buildNode(open, depth + 1, makeRouter) };
    }
  }
  return leaf(entries, makeRouter);
}

function leaf(entries: Entry[], makeRouter: (layers: ExpressLayer[]) => Handle): IndexNode {
  const all = makeRouter(entries.map((e) => e.layer));
  const byMethod = new Map<string, Handle>();
  const shared = new Map<string, Handle>();
  const methods = new Set(entries.flatMap((e) => Object.keys(e.layer.route!.methods)).map((m) => m.toUpperCase()));
  for (const method of methods) {
    if (method === '_ALL' || method === 'HEAD' || method === 'OPTIONS') continue;
    const layers = entries.filter((e) => e.layer.route!._handlesMethod(method)).map((e) => e.layer);
    if (layers.length === entries.length) continue;
    const key = layers.map((l) => entries.findIndex((e) => e.layer === l)).join(',');
    if (!shared.has(key)) shared.set(key, makeRouter(layers));
    byMethod.set(method, shared.get(key)!);
  }
  return { byMethod, all };
}

/**
 * Indexes the Express routes once every module has registered its own (application bootstrap
 * comes after route registration). Fastify needs nothing: its router is a radix tree already.
 */
@Injectable()
export class ExpressRouteIndex implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (adapter?.getType() !== 'express') return;
    indexRoutes((adapter.getInstance() as { router: ExpressRouter }).router);
  }
}
