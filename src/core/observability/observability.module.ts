import { Module } from '@nestjs/common';
import { MetricsServer } from './metrics-server';

/** The metrics listener of a serving instance (the command-line tools build the application without it). */
@Module({ providers: [MetricsServer] })
export class ObservabilityModule {}
