import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import { RecordEvent } from '../../core/events/record-events';
import { SqlParams } from '../../core/query/apply-query';
import { WebhookDispatcher } from './webhook-dispatcher';
import { webhookPayload } from './webhook-payload';

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

  statements(events: RecordEvent[], _actor: unknown, params: SqlParams): EventStatement[] {
    const items = events.map((e) => ({
      name: e.name,
      payload: webhookPayload(e),
      patterns: [e.name, `*.${e.action}`, `${e.meta.def.singular}.*`, '*.*'],
    }));
    const sql =
      `INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload") ` +
      `SELECT w."id", e."name", e."payload" FROM jsonb_to_recordset(${params.add(JSON.stringify(items))}::jsonb) ` +
      `AS e("name" text, "payload" jsonb, "patterns" text[]) ` +
      `JOIN "webhook" w ON w."deletedAt" IS NULL AND w."targetUrl" <> '' AND w."operations" && e."patterns" RETURNING 1`;
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
