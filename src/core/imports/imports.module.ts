import { Module } from '@nestjs/common';
import { ImportCheckpoints } from './import-checkpoints';
import { ImportJobs } from './import-jobs';
import { ImportMetrics } from './import-metrics';
import { ImportPasses } from './import-passes';
import { ImportRowChecks } from './import-row-checks';
import { ImportRunner } from './import-runner';
import { ImportWorker } from './import-worker';
import { ImportWriter } from './import-writer';

/**
 * Imports (API.md section 17): jobs started from a stored body, run in the background by the
 * worker of any instance, written in checkpoints by the set-based writer. The routes are in
 * rest/imports.controller.ts.
 */
@Module({
  providers: [
    ImportJobs,
    ImportMetrics,
    ImportWorker,
    ImportRunner,
    ImportPasses,
    ImportCheckpoints,
    ImportWriter,
    ImportRowChecks,
  ],
  exports: [ImportJobs],
})
export class ImportsModule {}
