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
import { methodsAt } from '../routes/route-paths';
import { ServiceRoute, SERVICE_ROUTES } from '../routes/service-routes';

/**
 * The catch-all under /rest, registered after every collection: explains what was wrong with
 * a path (unknown collection, singular name, a path of no route's shape, a method the path does
 * not take, from the route table) instead of a bare 404.
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
      const service = SERVICE_ROUTES.filter((r) => r.path.split('/')[0] === object);
      if (service.length > 0) {
        const shape = (r: ServiceRoute) => r.path.split('/');
        const fits = (r: ServiceRoute) =>
          shape(r).length === segments.length && shape(r).every((part, i) => part === '{id}' || part === segments[i]);
        const route = service.find(fits);
        if (!route)
          throw new BadRequestException(
            `Query path '${path}' invalid. Valid paths: ${service.map((r) => `/rest/${r.path}`).join(', ')}`,
          );
        const methods = service.filter((r) => r.path === route.path).map((r) => r.method);
        throw new BadRequestException(
          `${request.method} is not supported on '${path}'; it accepts ${methods.join(', ')}`,
        );
      }
      const meta = this.catalog.get(object);
      if (!meta) {
        const plural = this.catalog.pluralOf(object);
        throw new BadRequestException(
          plural
            ? `object '${object}' not found. Did you mean '${plural}'?`
            : `object '${object}' not found. eg: companies`,
        );
      }
      const methods = methodsAt(segments, object, meta.def.files === true);
      if (methods.length === 0)
        throw new BadRequestException(
          `Query path '${path}' invalid. Valid examples: /rest/${object}/id or /rest/${object}`,
        );
      throw new BadRequestException(
        `${request.method} is not supported on '${path}'; it accepts ${methods.join(', ')}`,
      );
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
