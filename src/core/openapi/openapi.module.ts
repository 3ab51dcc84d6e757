import { Controller, Get, INestApplication, Injectable, Module } from '@nestjs/common';
import { ApiExcludeController, DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { version } from '../../../package.json';
import { Public } from '../auth/public.decorator';

/** Holds the OpenAPI document built once at start-up. */
@Injectable()
export class OpenApiDocument {
  document?: OpenAPIObject;
}

@ApiExcludeController()
@Public()
@Controller('open-api')
export class OpenApiController {
  constructor(private readonly holder: OpenApiDocument) {}

  /** The machine-readable description of every route. */
  @Get('core')
  core(): OpenAPIObject {
    return this.holder.document!;
  }
}

@Module({ providers: [OpenApiDocument], controllers: [OpenApiController], exports: [OpenApiDocument] })
export class OpenApiModule {}

/** Builds the document from the controllers' decorators and serves Swagger UI at /rest/docs. */
export function setupOpenApi(app: INestApplication): OpenAPIObject {
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
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
    ignoreGlobalPrefix: true,
  });
  app.get(OpenApiDocument).document = document;
  SwaggerModule.setup('rest/docs', app, document, {
    raw: false,
    customSiteTitle: 'CRM record service API',
    swaggerOptions: { persistAuthorization: true, displayOperationId: true, tryItOutEnabled: false },
  });
  return document;
}
