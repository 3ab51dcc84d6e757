import { Controller, Get, INestApplication, Injectable, Module } from '@nestjs/common';
import { ApiExcludeController, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../../../package.json';
import { Public } from '../auth/public.decorator';
import { CollectionCatalog } from '../model/collection-catalog';
import { toOpenApi31 } from './openapi31';
import { documentRelations } from './record-response';
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
 * Builds the document from the controllers' decorators (the relation fields of every response
 * schema first, now that every collection is known) and serves Swagger UI at /rest/docs.
 */
export function setupOpenApi(app: INestApplication): Record<string, unknown> {
  documentRelations(app.get(CollectionCatalog));
  const config = new DocumentBuilder()
    .setTitle('CRM record service')
    .setDescription(
      'REST API over the CRM collections, wire-compatible with the REST API of Twenty. ' +
        'Authenticate with `Authorization: Bearer <api key>`.',
    )
    .setVersion(version)
    .addServer('/rest')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key (POST /rest/apiKeys)' })
    .build();
  const generated = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
    ignoreGlobalPrefix: true,
  });
  const document = toOpenApi31(generated, { webhooks: WEBHOOK_DOCS });
  app.get(OpenApiDocument).document = document;
  SwaggerModule.setup('rest/docs', app, document as unknown as OpenAPIObject, {
    raw: false,
    customSiteTitle: 'CRM record service API',
    swaggerOptions: { persistAuthorization: true, displayOperationId: true, tryItOutEnabled: false },
  });
  return document;
}
