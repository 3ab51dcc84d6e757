import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CollectionRegistration, COLLECTIONS, DATABASE_SCHEMA } from './collections';
import { AuthModule } from './core/auth/auth.module';
import { AppConfig } from './core/config/app-config';
import { ConfigModule } from './core/config/config.module';
import { RecordsModule } from './core/records/records.module';
import { UnknownRouteModule } from './core/rest/unknown-route.controller';
import { DatabaseModule } from './core/database/database.module';
import { AllExceptionsFilter } from './core/rest/all-exceptions.filter';
import { HealthModule } from './core/health/health.controller';
import { McpModule } from './core/mcp/mcp.controller';
import { SearchModule } from './core/rest/search.controller';
import { ChangesRoutesModule } from './core/rest/changes.controller';
import { ImportsRoutesModule } from './core/rest/imports.controller';
import { OpenApiModule } from './core/openapi/openapi.module';
import { SharedRedisModule } from './core/cache/shared-redis';
import { ReplicaReadsModule } from './core/http/replica-reads';
import { FileStorageModule } from './core/files/file-storage.module';
import { MetricsModule } from './core/metrics/metrics.module';

@Module({})
export class AppModule {
  /**
   * `logging`: the nestjs-pino module (omitted by command-line tools, which keep Nest's console
   * logger). `collections`: the collections served (COLLECTIONS; a test may add its own).
   */
  static forRoot(
    config: AppConfig,
    logging?: DynamicModule,
    collections: CollectionRegistration[] = COLLECTIONS,
  ): DynamicModule {
    const definitions = collections.map((c) => c.definition);
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        MetricsModule,
        ...(logging ? [logging] : []),
        DatabaseModule.forRoot({ ...DATABASE_SCHEMA, collections: definitions }),
        SharedRedisModule,
        ReplicaReadsModule.forRoot(config),
        FileStorageModule,
        RecordsModule.forRoot(definitions),
        AuthModule,
        OpenApiModule,
        HealthModule,
        SearchModule,
        ChangesRoutesModule,
        ImportsRoutesModule,
        McpModule,
        ...collections.map((c) => c.module),
        // last: its catch-all route must be registered after every collection route
        UnknownRouteModule.forAdapter(config.httpAdapter),
      ],
      providers: [{ provide: APP_FILTER, useClass: AllExceptionsFilter }],
    };
  }
}
