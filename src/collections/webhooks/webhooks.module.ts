import { Module } from '@nestjs/common';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookOutboxSubscriber } from './webhook-outbox.subscriber';
import { WebhooksController } from './webhooks.controller';

/** Webhooks: the collection, the outbox its events fill, and the dispatcher that delivers it. */
@Module({ controllers: [WebhooksController], providers: [WebhookDispatcher, WebhookOutboxSubscriber] })
export class WebhooksModule {}
