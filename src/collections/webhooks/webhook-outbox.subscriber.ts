import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import type { RequestActor } from '../../core/model/record';
import { EVENT_RELATION } from '../../core/repository/event-rows';
import { SqlParams } from '../../core/query/sql-params';
import { activeTraceParent, tracingOn } from '../../core/tracing/tracing';
import { WebhookDispatcher } from './webhook-dispatcher';
import { webhookPayloadSql } from './webhook-payload';

const NO_TRACE = { column: '', value: '' };

/**
 * The transactional outbox: one `webhookDelivery` row per event and matching live webhook
 * (`operations` patterns `person.created`, `*.created`, `person.*`, `*.*`), written in the
 * transaction of the change, with the trace context of the write (tracing on); the dispatcher
 * is woken once it has committed.
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

  statements(_collections: unknown, actor: RequestActor, params: SqlParams): EventStatement[] {
    // an import sends its records' events only with webhooks=records (else one summary per job)
    if (actor.importContext && !actor.importContext.recordWebhooks) return [];
    const patterns = `ARRAY[e."name", '*.' || e."action", e."objectName" || '.*', '*.*']`;
    // with tracing on, the write's trace context travels with each delivery (the same text whether
    // the request has one or not: a prepared statement stays one); off, the statement is as it was
    const trace = tracingOn()
      ? { column: `, "traceParent"`, value: `, ${params.add(activeTraceParent())}::text` }
      : NO_TRACE;
    const sql =
      `INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload"${trace.column}) ` +
      `SELECT w."id", e."name", ${webhookPayloadSql('e')}${trace.value} FROM ${EVENT_RELATION} e ` +
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
