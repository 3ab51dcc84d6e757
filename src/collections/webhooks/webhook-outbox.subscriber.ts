import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import type { RequestActor } from '../../core/model/record';
import { EVENT_RELATION } from '../../core/repository/event-rows';
import { WebhookDispatcher } from './webhook-dispatcher';
import { webhookPayloadSql } from './webhook-payload';

/**
 * The transactional outbox: one `webhookDelivery` row per event and matching live webhook
 * (`operations` patterns `person.created`, `*.created`, `person.*`, `*.*`), written in the
 * transaction of the change; the dispatcher is woken once it has committed.
 */
@Injectable()
export class WebhookOutboxSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'webhooks';
  readonly writes = [];

  constructor(
    private readonly bus: RecordEventBus,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(this);
  }

  statements(_collections: unknown, actor: RequestActor): EventStatement[] {
    // an import sends its records' events only with webhooks=records (else one summary per job)
    if (actor.importContext && !actor.importContext.recordWebhooks) return [];
    const patterns = `ARRAY[e."name", '*.' || e."action", e."objectName" || '.*', '*.*']`;
    const sql =
      `INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload") ` +
      `SELECT w."id", e."name", ${webhookPayloadSql('e')} FROM ${EVENT_RELATION} e ` +
      `JOIN "webhook" w ON w."deletedAt" IS NULL AND w."targetUrl" <> '' AND w."operations" && ${patterns} RETURNING 1`;
    return [
      {
        name: 'outbox',
        sql,
        committed: (rows) => {
          if (rows > 0) this.dispatcher.wake();
        },
      },
    ];
  }
}
