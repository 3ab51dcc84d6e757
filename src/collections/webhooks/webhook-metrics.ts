import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { Db } from '../../core/database/db';
import { Metrics } from '../../core/metrics/metrics';
import { deliveryStatements } from './webhook-delivery.statements';

export type DeliveryOutcome = 'delivered' | 'retry' | 'failed';

/**
 * The webhook metrics of API.md section 20: the outbox's backlog and the age of its oldest pending
 * delivery (every instance's, read on the metrics refresh timer), and this instance's attempts by
 * outcome with the duration of their POST.
 */
@Injectable()
export class WebhookMetrics implements OnModuleInit {
  private readonly attempts: ReturnType<Metrics['counter']>;
  private readonly durations: ReturnType<Metrics['histogram']>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
    private readonly db: Db,
  ) {
    this.attempts = metrics.counter('crm_webhook_deliveries_total');
    this.durations = metrics.histogram('crm_webhook_delivery_duration_seconds');
  }

  onModuleInit(): void {
    if (this.config.metrics.port === 0) return;
    const pending = this.metrics.gauge('crm_webhook_outbox_pending_deliveries');
    const oldest = this.metrics.gauge('crm_webhook_outbox_oldest_pending_age_seconds');
    this.metrics.onRefresh('webhook outbox', async () => {
      const backlog = await deliveryStatements.backlog(this.db);
      pending.set({}, backlog.pending);
      oldest.set({}, backlog.oldestSeconds);
    });
  }

  /** One attempt's outcome and how long its POST took. */
  attempted(outcome: DeliveryOutcome, seconds: number): void {
    this.attempts.inc({ outcome });
    this.durations.observe({ outcome }, seconds);
  }
}
