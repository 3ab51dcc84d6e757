import { Injectable } from '@nestjs/common';
import { CollectionCatalog, CollectionMeta, q } from '../model/collection-meta';
import type { RequestActor } from '../repository/record-writer';
import type { Queryable } from '../database/db';
import { auditProperties, RecordEvent, webhookPayload } from './record-events';
import { WebhookDispatcher } from '../../collections/webhooks/webhook-dispatcher';

/** Junction collections whose events also appear on the timeline of the records they link. */
const LINKED_TIMELINES: Record<string, { via: string; name: string }> = {
  noteTargets: { via: 'noteId', name: 'linked-note' },
  taskTargets: { via: 'taskId', name: 'linked-task' },
};

/** Events written by one statement: well under PostgreSQL's 65535 bound parameters. */
const EVENTS_PER_STATEMENT = 500;

interface TimelineRow {
  name: string;
  properties: Record<string, unknown>;
  joinColumn: string;
  recordId: string;
  linkedRecordId: string | null;
}

/**
 * Writes the consequences of record events inside the transaction of the change itself:
 * one `auditLogs` row per event, and `timelineActivities` rows for collections with a timeline
 * (plus a row on the linked record for note and task targets). A rolled-back write leaves none.
 */
@Injectable()
export class EventRecorder {
  private readonly audit: CollectionMeta;
  private readonly timeline: CollectionMeta;
  /** Join column of timelineActivities for each collection that has one (`people` -> `personId`). */
  private readonly timelineColumn = new Map<string, string>();

  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly dispatcher: WebhookDispatcher,
  ) {
    this.audit = catalog.require('auditLogs');
    this.timeline = catalog.require('timelineActivities');
    for (const rel of this.timeline.manyToOne) this.timelineColumn.set(rel.target, rel.joinColumn);
  }

  /**
   * One statement for all the consequences of a write (data-modifying CTEs): the audit rows, the
   * timeline rows and the webhook outbox rows, so a write costs one round trip more, not three.
   */
  async record(tx: Queryable, events: RecordEvent[], actor: RequestActor): Promise<void> {
    if (events.length === 0) return;
    if (events.length > EVENTS_PER_STATEMENT) {
      // PostgreSQL binds at most 65535 parameters per statement
      for (let i = 0; i < events.length; i += EVENTS_PER_STATEMENT) await this.record(tx, events.slice(i, i + EVENTS_PER_STATEMENT), actor);
      return;
    }
    const params: unknown[] = [];
    const values = (rows: unknown[][]) => rows.map((row) => `(${row.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`).join(', ');
    const context = JSON.stringify({ apiKeyId: actor.apiKeyId || null });
    const auditColumns = ['name', 'objectName', 'recordId', 'properties', 'context', 'workspaceMemberId'];
    const auditRows = events.map((e) => [e.name, e.meta.def.singular, e.recordId, JSON.stringify(auditProperties(e)), context, actor.workspaceMemberId]);
    const parts = [`audit AS (INSERT INTO ${this.audit.sqlTable} (${auditColumns.map(q).join(', ')}) VALUES ${values(auditRows)})`];

    const timelineRows = events.flatMap((e) => this.timelineRows(e));
    if (timelineRows.length > 0) {
      const joinColumns = [...new Set(this.timelineColumn.values())];
      const columns = ['name', 'properties', 'linkedRecordId', ...joinColumns];
      const rows = timelineRows.map((row) => [
        row.name,
        JSON.stringify(row.properties),
        row.linkedRecordId,
        ...joinColumns.map((c) => (c === row.joinColumn ? row.recordId : null)),
      ]);
      parts.push(`timeline AS (INSERT INTO ${this.timeline.sqlTable} (${columns.map(q).join(', ')}) VALUES ${values(rows)})`);
    }

    // the transactional outbox: one delivery row per event and matching webhook
    const items = events.map((e) => ({
      name: e.name,
      payload: webhookPayload(e),
      patterns: [e.name, `*.${e.action}`, `${e.meta.def.singular}.*`, '*.*'],
    }));
    params.push(JSON.stringify(items));
    parts.push(
      `outbox AS (INSERT INTO "webhookDelivery" ("webhookId", "eventName", "payload") ` +
        `SELECT w."id", e."name", e."payload" FROM jsonb_to_recordset($${params.length}::jsonb) AS e("name" text, "payload" jsonb, "patterns" text[]) ` +
        `JOIN "webhook" w ON w."deletedAt" IS NULL AND w."targetUrl" <> '' AND w."operations" && e."patterns" RETURNING 1)`,
    );
    const [{ enqueued }] = await tx.query<{ enqueued: number }>(`WITH ${parts.join(', ')} SELECT count(*)::int AS enqueued FROM outbox`, params);
    if (enqueued > 0) tx.afterCommit?.(() => this.dispatcher.wake());
  }

  private timelineRows(event: RecordEvent): TimelineRow[] {
    const rows: TimelineRow[] = [];
    const properties = auditProperties(event);
    const ownColumn = this.timelineColumn.get(event.meta.plural);
    // a destroyed record takes its timeline with it (the foreign key cascades)
    if (event.meta.def.timeline && ownColumn && event.action !== 'destroyed') {
      rows.push({ name: event.name, properties, joinColumn: ownColumn, recordId: event.recordId, linkedRecordId: null });
    }
    const linked = LINKED_TIMELINES[event.meta.plural];
    const record = event.after ?? event.before;
    if (linked && record) {
      for (const rel of event.meta.manyToOne) {
        const column = this.timelineColumn.get(rel.target);
        const targetId = record[rel.joinColumn];
        if (rel.joinColumn === linked.via || !column || typeof targetId !== 'string') continue;
        if (!this.catalog.require(rel.target).def.timeline) continue;
        const via = record[linked.via];
        rows.push({
          name: `${linked.name}.${event.action}`,
          properties,
          joinColumn: column,
          recordId: targetId,
          linkedRecordId: typeof via === 'string' ? via : null,
        });
      }
    }
    return rows;
  }
}
