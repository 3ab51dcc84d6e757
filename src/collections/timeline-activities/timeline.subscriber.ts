import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import { auditProperties, RecordEvent } from '../../core/events/record-events';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import { CollectionMeta } from '../../core/model/collection-meta';
import { SqlParams } from '../../core/query/apply-query';
import { RecordRepository } from '../../core/repository/record-repository';
import { Repositories } from '../../core/repository/repositories';

interface TimelineRow {
  name: string;
  properties: Record<string, unknown>;
  joinColumn: string;
  recordId: string;
  linkedRecordId: string | null;
}

/**
 * The timeline: a `timelineActivities` row for each event on a collection with `timeline: true`,
 * and, for junction collections with a `linkedTimeline` (note and task targets), a row on the
 * timeline of each record they link. Checked at start-up: every such collection needs a join
 * column of timelineActivities pointing at it.
 */
@Injectable()
export class TimelineSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'timeline';
  readonly writes = ['timelineActivities'];
  private readonly timeline: RecordRepository;
  /** Join column of timelineActivities for each collection that has one (`people` -> `personId`). */
  private readonly columnOf = new Map<string, string>();
  private readonly joinColumns: string[];

  constructor(
    private readonly bus: RecordEventBus,
    private readonly catalog: CollectionCatalog,
    repositories: Repositories,
  ) {
    this.timeline = repositories.get('timelineActivities');
    for (const rel of this.timeline.meta.manyToOne) this.columnOf.set(rel.target, rel.joinColumn);
    this.joinColumns = [...new Set(this.columnOf.values())];
  }

  private check(meta: CollectionMeta): void {
    if (meta.def.timeline && !this.columnOf.has(meta.plural)) {
      throw new Error(
        `Collection '${meta.plural}' declares timeline: true, but timelineActivities has no join column pointing at it ` +
          `(add a JoinColumnField with target '${meta.plural}' to timeline-activity.dto.ts)`,
      );
    }
    const linked = meta.def.linkedTimeline;
    if (linked && !meta.manyToOne.some((r) => r.joinColumn === linked.via)) {
      throw new Error(`Collection '${meta.plural}' declares linkedTimeline.via '${linked.via}', which is not one of its join columns`);
    }
  }

  onModuleInit(): void {
    for (const meta of this.catalog.all()) this.check(meta);
    this.bus.subscribe(this);
  }

  statements(events: RecordEvent[], _actor: unknown, params: SqlParams): EventStatement[] {
    const rows = events.flatMap((e) => this.rowsOf(e));
    if (rows.length === 0) return [];
    const columns = ['name', 'properties', 'linkedRecordId', ...this.joinColumns];
    const records = rows.map((row) => ({ name: row.name, properties: row.properties, linkedRecordId: row.linkedRecordId, [row.joinColumn]: row.recordId }));
    return [{ name: 'timeline', sql: this.timeline.insertFromJson(columns, params.add(JSON.stringify(records))) }];
  }

  private rowsOf(event: RecordEvent): TimelineRow[] {
    const rows: TimelineRow[] = [];
    const properties = auditProperties(event);
    const ownColumn = this.columnOf.get(event.meta.plural);
    // a destroyed record takes its timeline with it (the foreign key cascades)
    if (event.meta.def.timeline && ownColumn && event.action !== 'destroyed') {
      rows.push({ name: event.name, properties, joinColumn: ownColumn, recordId: event.recordId, linkedRecordId: null });
    }
    const linked = event.meta.def.linkedTimeline;
    const record = event.after ?? event.before;
    if (!linked || !record) return rows;
    for (const rel of event.meta.manyToOne) {
      const column = this.columnOf.get(rel.target);
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
    return rows;
  }
}
