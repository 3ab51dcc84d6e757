import { Controller, Get, INestApplication, Injectable, Module } from '@nestjs/common';
import { ApiExcludeController, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../../../package.json';
import { Public } from '../auth/public.decorator';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionCatalog } from '../model/collection-catalog';
import { toOpenApi31 } from './openapi31';
import { ErrorEnvelopeSchema, PageInfoSchema } from './envelope.schemas';
import { documentRelations } from './record-response';
import { collectionPaths } from './route-operations';
import { WEBHOOK_DOCS } from './webhooks.docs';

/** Holds the OpenAPI document built once at start-up. */
@Injectable()
export class OpenApiDocument {
  document?: Record<string, unknown>;
}

@ApiExcludeController()
@Public()
@Controller('open-api')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  /** The machine-readable description of every route. */
  @Get('core')
  core(): Record<string, unknown> {
    return this.holder.document!;
  }
}

@Module({ providers: [OpenApiDocument], controllers: [OpenApiController], exports: [OpenApiDocument] })
export class OpenApiModule {}

/**
 * The tags of the document, each with its one-line description: the CRM's main objects first
 * (their `featured` rank), then the other collections, then search.
 */
function documentTags(definitions: readonly CollectionDefinition[]) {
  const featured = definitions.filter((d) => d.featured).sort((a, b) => a.featured! - b.featured!);
  const others = definitions.filter((d) => !d.featured);
  return [
    ...[...featured, ...others].map((d) => ({ name: d.plural, description: d.description })),
    { name: 'search', description: 'Search across collections: every word as a prefix, accents and case ignored' },
  ];
}

/** Swagger UI orders a tag's operations by their `x-order` (the route table's order), others after. */
const byRouteTableOrder = (a: SwaggerOperation, b: SwaggerOperation) =>
  (a.get('operation').get('x-order') ?? 1000) - (b.get('operation').get('x-order') ?? 1000);
type SwaggerOperation = { get(key: 'operation'): { get(key: 'x-order'): number | undefined } };

/**
 * Builds the document: the operations of every collection from the route table (with the limits
 * of the configuration), the other routes from their controllers' decorators, the schemas of
 * every collection (relation fields added now that every collection is known), and serves
 * Swagger UI at /rest/docs with its filter box on and tags collapsed.
 */
export function setupOpenApi(app: INestApplication): Record<string, unknown> {
  const catalog = app.get(CollectionCatalog);
  const config = app.get<AppConfig>(APP_CONFIG);
  documentRelations(catalog);
  const definitions = catalog.all().map((m) => m.def);
  const builder = new DocumentBuilder()
    .setTitle('CRM record service')
    .setDescription(
      'REST API over the CRM collections, wire-compatible with the REST API of Twenty. ' +
        'Authenticate with `Authorization: Bearer <api key>`.',
    )
    .setVersion(version)
    .addServer('/rest')
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'API key',
      description: 'API key (POST /rest/apiKeys)',
    })
    .build();
  const generated = SwaggerModule.createDocument(app, builder, {
    operationIdFactory: (_controller, method) => method,
    ignoreGlobalPrefix: true,
    extraModels: [ErrorEnvelopeSchema, PageInfoSchema, ...definitions.flatMap((d) => [d.create, d.update, d.response])],
  });
  generated.paths = { ...(collectionPaths(definitions, config) as OpenAPIObject['paths']), ...generated.paths };
  generated.tags = documentTags(definitions);
  const document = toOpenApi31(generated, { webhooks: WEBHOOK_DOCS });
  app.get(OpenApiDocument).document = document;
  SwaggerModule.setup('rest/docs', app, document as unknown as OpenAPIObject, {
    raw: false,
    customSiteTitle: 'CRM record service API',
    swaggerOptions: {
      persistAuthorization: true,
      displayOperationId: true,
      tryItOutEnabled: false,
      filter: true,
      docExpansion: 'none',
      operationsSorter: byRouteTableOrder,
    },
  });
  return document;
}
