import { Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';

/** The process's one metrics registry, for every module to record into (served by the observability module). */
@Global()
@Module({ providers: [{ provide: Metrics, useFactory: () => new Metrics() }], exports: [Metrics] })
export class MetricsModule {}
