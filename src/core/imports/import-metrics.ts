import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Db } from '../database/db';
import { Metrics } from '../metrics/metrics';
import { importStatements } from '../repository/import-statements';

/** `crm_import_jobs`: the jobs waiting and under way on every instance, read on the refresh timer. */
@Injectable()
export class ImportMetrics implements OnModuleInit {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly db: Db,
  ) {}

  onModuleInit(): void {
    if (this.config.metrics.port === 0) return;
    const jobs = this.metrics.gauge('crm_import_jobs');
    this.metrics.onRefresh('import jobs', async () => {
      const counts = await importStatements.activeCounts(this.db);
      for (const state of ['queued', 'running'] as const)
        jobs.set({ state }, counts.find((c) => c.state === state)?.jobs ?? 0);
    });
  }
}
