import { Controller, Get, INestApplication, Injectable, Module, Req } from '@nestjs/common';
import { ApiExcludeController, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../../../package.json';
import { Public } from '../auth/public.decorator';
import { ACTOR_PROPERTY } from '../auth/request-actor.decorator';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor } from '../model/record';
import { keyDocument } from './key-document';
import { DocumentLimits } from './route-parameters';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { CollectionDefinition } from '../model/collection-definition';
import { CollectionCatalog } from '../model/collection-catalog';
import { toOpenApi31 } from './openapi31';
import { ErrorEnvelopeSchema, PageInfoSchema } from './envelope.schemas';
import { documentRelations } from './record-response';
import { collectionPaths } from './route-operations';
import { WEBHOOK_DOCS } from './webhooks.docs';
import { IMPORT_JOB_SCHEMA, IMPORT_JOB_SCHEMA_NAME } from './imports.docs';

/** What the documents are made of, kept from start-up: the generated document without the collection routes. */
interface DocumentParts {
  base: OpenAPIObject;
  collections: CollectionMeta[];
  limits: DocumentLimits;
}

/** Holds the OpenAPI document built once at start-up, and the documents of keys with a role (built once per set of grants). */
@Injectable()
export class OpenApiDocument {
  document?: Record<string, unknown>;
  parts?: DocumentParts;
  private readonly byGrants = new Map<string, Record<string, unknown>>();

  /** The document a key may read: the whole one for an admin, else its own (API.md section 14). */
  of(access: Access | undefined): Record<string, unknown> {
    if (!access || access.admin) return this.document!;
    const { base, collections, limits } = this.parts!;
    const signature = grantsSignature(access, collections);
    let document = this.byGrants.get(signature);
    if (!document) {
      if (this.byGrants.size >= 100) this.byGrants.clear();
      document = keyDocument(base, collections, limits, access);
      this.byGrants.set(signature, document);
    }
    return document;
  }
}

/** What a document depends on of a key's grants, as text (keys of one role share their document). */
function grantsSignature(access: Access, collections: readonly CollectionMeta[]): string {
  return JSON.stringify(
    collections.map((meta) => {
      const grant = access.grant(meta.plural);
      return grant && [[...grant.actions], [...grant.hidden], [...grant.readOnly]];
    }),
  );
}

@ApiExcludeController()
@Public('keyed')
@Controller('open-api')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  /** The machine-readable description of every route; with an API key, of the routes and fields that key may use. */
  @Get('core')
  core(@Req() request: { [ACTOR_PROPERTY]?: RequestActor }): Record<string, unknown> {
    return this.holder.of(request[ACTOR_PROPERTY]?.access);
  }
}

@Module({ providers: [OpenApiDocument], controllers: [OpenApiController], exports: [OpenApiDocument] })
export class OpenApiModule {}

/**
 * The tags of the document, each with its one-line description: the CRM's main objects first
 * (their `featured` rank), then the other collections, then the routes of no collection (search,
 * the change feed, the import jobs).
 */
function documentTags(definitions: readonly CollectionDefinition[]) {
  const featured = definitions.filter((d) => d.featured).sort((a, b) => a.featured! - b.featured!);
  const others = definitions.filter((d) => !d.featured);
  return [
    ...[...featured, ...others].map((d) => ({ name: d.plural, description: d.description })),
    { name: 'search', description: 'Search across collections: every word as a prefix, accents and case ignored' },
    { name: 'changes', description: 'The change feed: every change in order, by page or as a stream, from a token' },
    {
      name: 'imports',
      description: 'Import jobs (POST /<collection>/import starts one): their state, progress, error report, cancel',
    },
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
  generated.tags = documentTags(definitions);
  // the import job, answered by the import of every collection and by the job routes
  generated.components = {
    ...generated.components,
    schemas: { ...generated.components?.schemas, [IMPORT_JOB_SCHEMA_NAME]: structuredClone(IMPORT_JOB_SCHEMA) },
  };
  const holder = app.get(OpenApiDocument);
  holder.parts = { base: structuredClone(generated), collections: catalog.all(), limits: config };
  generated.paths = { ...(collectionPaths(definitions, config) as OpenAPIObject['paths']), ...generated.paths };
  const document = toOpenApi31(generated, { webhooks: WEBHOOK_DOCS });
  holder.document = document;
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
