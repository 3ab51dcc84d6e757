import { Module } from '@nestjs/common';
import { ImportSummarySubscriber } from './import-summary.subscriber';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookOutboxSubscriber } from './webhook-outbox.subscriber';
import { WebhooksController } from './webhooks.controller';

/** Webhooks: the collection, the outbox its events (and the ends of imports) fill, and the dispatcher that delivers it. */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookDispatcher, WebhookMetrics, WebhookOutboxSubscriber, ImportSummarySubscriber],
})
export class WebhooksModule {}
