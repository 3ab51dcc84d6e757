import { Injectable, OnModuleInit } from '@nestjs/common';
import { Queryable } from '../../core/database/db';
import { ImportEnd, ImportEndSubscriber, ImportEvents } from '../../core/events/import-events';
import { activeTraceParent } from '../../core/tracing/tracing';
import { WebhookDispatcher } from './webhook-dispatcher';

/**
 * The summary of an import (API.md section 17, `webhooks=summary`): one `webhookDelivery` row per
 * live webhook subscribed to `import.completed` / `import.failed` (`operations` patterns
 * `import.completed`, `*.completed`, `import.*`, `*.*`), body `{eventName, import, eventDate}`,
 * written in the job's last transaction and delivered as every event is (signature, retries).
 */
@Injectable()
export class ImportSummarySubscriber implements ImportEndSubscriber, OnModuleInit {
  constructor(
    private readonly imports: ImportEvents,
    private readonly dispatcher: WebhookDispatcher,
  ) {}

  onModuleInit(): void {
    this.imports.subscribe(this);
  }

  async ended(tx: Queryable, end: ImportEnd): Promise<void> {
    const [action] = end.eventName.split('.').slice(1);
    const patterns = [end.eventName, `*.${action}`, 'import.*', '*.*'];
    const rows = await tx.query(
      `INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload", "traceParent") ` +
        `SELECT w."id", $1, jsonb_build_object('eventName', $1::text, 'import', $2::jsonb, ` +
        `'eventDate', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')), $4::text ` +
        `FROM "webhook" w WHERE w."deletedAt" IS NULL AND w."targetUrl" <> '' AND w."operations" && $3::text[] RETURNING 1`,
      [end.eventName, JSON.stringify(end.job), patterns, activeTraceParent()],
    );
    if (rows.length > 0) tx.afterCommit?.(() => this.dispatcher.wake());
  }
}
