import {
  All,
  BadRequestException,
  Controller,
  DynamicModule,
  Module,
  NotFoundException,
  Req,
  Type,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CollectionCatalog } from '../model/collection-catalog';

/**
 * The path shapes a collection answers (segments after `/rest`: `c`, `c/x`, `c/x/restore`,
 * `batch/c`, `restore/c`, `restore/c/x`, with `x` an id, `duplicates`, `merge` or `restore`) and
 * the methods each takes: a path of another shape is a 400 `Query path ... invalid`; a known
 * shape asked with another method is a 400 naming the methods it takes.
 */
const SHAPES: { test: (segments: string[]) => boolean; methods: string }[] = [
  { test: (s) => s.length === 1, methods: 'GET, POST, PATCH, PUT, DELETE' },
  { test: (s) => s.length === 2 && s[0] !== 'batch' && s[0] !== 'restore' && s[1] === 'duplicates', methods: 'POST' },
  {
    test: (s) => s.length === 2 && s[0] !== 'batch' && s[0] !== 'restore' && (s[1] === 'merge' || s[1] === 'restore'),
    methods: 'PATCH',
  },
  { test: (s) => s.length === 2 && s[0] !== 'batch' && s[0] !== 'restore' && s[1] === 'groupBy', methods: 'GET' },
  { test: (s) => s.length === 2 && s[0] !== 'batch' && s[0] !== 'restore', methods: 'GET, PATCH, PUT, DELETE' },
  { test: (s) => s.length === 3 && s[0] !== 'batch' && s[0] !== 'restore' && s[2] === 'restore', methods: 'PATCH' },
  { test: (s) => s.length === 2 && s[0] === 'batch', methods: 'POST' },
  { test: (s) => (s.length === 2 || s.length === 3) && s[0] === 'restore', methods: 'PATCH' },
];

/**
 * The catch-all under /rest, registered after every collection: explains what was wrong with
 * a path (unknown collection, singular name, extra segment, method) instead of a bare 404.
 * The wildcard is spelled per router: Express 5 needs a named one, Fastify's router a bare `*`.
 */
function unknownRouteController(wildcard: string): Type<object> {
  @ApiExcludeController()
  @Controller()
  class UnknownRouteController {
    constructor(private readonly catalog: CollectionCatalog) {}

    @All(wildcard)
    unknown(@Req() request: { method: string; url: string }): never {
      const path = request.url.split('?')[0];
      const segments = path.split('/').filter(Boolean).slice(1); // drop 'rest'
      const object = segments[0] === 'batch' || segments[0] === 'restore' ? segments[1] : segments[0];
      if (object === undefined) throw new NotFoundException(`Cannot ${request.method} ${path}`);
      if (!this.catalog.get(object)) {
        const plural = this.catalog.pluralOf(object);
        throw new BadRequestException(
          plural
            ? `object '${object}' not found. Did you mean '${plural}'?`
            : `object '${object}' not found. eg: companies`,
        );
      }
      const shape = SHAPES.find((s) => s.test(segments));
      if (!shape)
        throw new BadRequestException(
          `Query path '${path}' invalid. Valid examples: /rest/${object}/id or /rest/${object}`,
        );
      throw new BadRequestException(`${request.method} is not supported on '${path}'; it accepts ${shape.methods}`);
    }
  }
  return UnknownRouteController;
}

@Module({})
export class UnknownRouteModule {
  static forAdapter(adapter: 'express' | 'fastify'): DynamicModule {
    return { module: UnknownRouteModule, controllers: [unknownRouteController(adapter === 'fastify' ? '*' : '*path')] };
  }
}
