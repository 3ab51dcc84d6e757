import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import { EVENT_RELATION, eventPropertiesSql, eventRecordSql } from '../../core/repository/event-rows';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import { CollectionMeta } from '../../core/model/collection-meta';
import { literal } from '../../core/database/sql';
import { WriteStatements } from '../../core/repository/write-statements';
import { Repositories } from '../../core/repository/repositories';

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
  private readonly timeline: WriteStatements;
  /** Join column of timelineActivities for each collection that has one (`people` -> `personId`). */
  private readonly columnOf = new Map<string, string>();
  private readonly joinColumns: string[];

  constructor(
    private readonly bus: RecordEventBus,
    private readonly catalog: CollectionCatalog,
    repositories: Repositories,
  ) {
    this.timeline = repositories.get('timelineActivities').writes;
    for (const rel of this.timeline.table.meta.manyToOne) this.columnOf.set(rel.target, rel.joinColumn);
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
      throw new Error(
        `Collection '${meta.plural}' declares linkedTimeline.via '${linked.via}', which is not one of its join columns`,
      );
    }
  }

  onModuleInit(): void {
    for (const meta of this.catalog.all()) this.check(meta);
    this.bus.subscribe(this);
  }

  /** The statements by the collections of a write (a few combinations: one collection, a merge's). */
  private readonly built = new Map<string, EventStatement[]>();

  statements(collections: CollectionMeta[]): EventStatement[] {
    const key = collections.map((meta) => meta.plural).join(',');
    let statements = this.built.get(key);
    if (statements === undefined) this.built.set(key, (statements = this.build(collections)));
    return statements;
  }

  private build(collections: CollectionMeta[]): EventStatement[] {
    const selects = collections.flatMap((meta) => this.selectsOf(meta));
    if (selects.length === 0) return [];
    const columns = ['name', 'properties', 'linkedRecordId', ...this.joinColumns];
    return [{ name: 'timeline', sql: this.timeline.insertFrom(columns, selects.join(' UNION ALL ')) }];
  }

  /** `SELECT name, properties, linkedRecordId, <join columns>` of the timeline rows of events on `meta`. */
  private selectsOf(meta: CollectionMeta): string[] {
    const selects: string[] = [];
    const on = `FROM ${EVENT_RELATION} e WHERE e."objectName" = ${literal(meta.def.singular)}`;
    const row = (name: string, linkedRecordId: string, column: string, recordId: string) =>
      `SELECT ${name}, ${eventPropertiesSql('e')}, ${linkedRecordId}, ` +
      this.joinColumns.map((c) => (c === column ? `${recordId}` : 'NULL::uuid')).join(', ');
    const ownColumn = this.columnOf.get(meta.plural);
    // a destroyed record takes its timeline with it (the foreign key cascades)
    if (meta.def.timeline && ownColumn)
      selects.push(`${row('e."name"', 'NULL::uuid', ownColumn, 'e."recordId"')} ${on} AND e."action" <> 'destroyed'`);
    const linked = meta.def.linkedTimeline;
    if (!linked) return selects;
    const record = eventRecordSql('e');
    for (const rel of meta.manyToOne) {
      const column = this.columnOf.get(rel.target);
      if (rel.joinColumn === linked.via || !column || !this.catalog.require(rel.target).def.timeline) continue;
      const target = `(${record} ->> ${literal(rel.joinColumn)})::uuid`;
      const via = `(${record} ->> ${literal(linked.via)})::uuid`;
      selects.push(
        `${row(`${literal(`${linked.name}.`)} || e."action"`, via, column, target)} ${on} AND ${record} ->> ${literal(rel.joinColumn)} IS NOT NULL`,
      );
    }
    return selects;
  }
}
