import { All, BadRequestException, Controller, DynamicModule, Module, NotFoundException, Req, Type } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { CollectionCatalog } from './collection-meta';

/** Longest route of a collection: `/rest/<c>/<id>/restore` (3 segments), `/rest/batch/<c>` (2). */
const MAX_SEGMENTS = { record: 3, batch: 2 };

/**
 * The catch-all under /rest, registered after every collection: explains what was wrong with
 * a path (unknown collection, singular name, extra segment) instead of a bare 404.
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
      const object = segments[0] === 'batch' ? segments[1] : segments[0];
      if (object !== undefined && !this.catalog.get(object)) {
        const plural = this.catalog.pluralOf(object);
        throw new BadRequestException(
          plural ? `object '${object}' not found. Did you mean '${plural}'?` : `object '${object}' not found. eg: companies`,
        );
      }
      const max = segments[0] === 'batch' ? MAX_SEGMENTS.batch : MAX_SEGMENTS.record;
      if (object !== undefined && segments.length > max) {
        throw new BadRequestException(`Query path '${path}' invalid. Valid examples: /rest/${object}/id or /rest/${object}`);
      }
      throw new NotFoundException(`Cannot ${request.method} ${path}`);
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
