import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queryable } from '../database/db';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { SqlParams } from '../query/apply-query';
import { RecordEvent } from './record-events';

/** One data-modifying CTE a subscriber adds to the statement of a write's events. */
export interface EventStatement {
  /** Its CTE name, unique within the statement. */
  name: string;
  /** `INSERT ...` (with `RETURNING 1` when `committed` wants the count of rows written). */
  sql: string;
  /** Runs after the transaction committed, with the number of rows the CTE returned. */
  committed?: (rows: number) => void;
}

/**
 * What the consequences of record events plug into: audit log, timeline, webhook outbox. Each
 * subscriber is registered by the module of the collection that owns its rows (core names
 * none of them) and turns a write's events into rows of that collection.
 */
export interface RecordEventSubscriber {
  /** What it provides, for the start-up checks: `timeline` is required by collections with `timeline: true`. */
  readonly provides: string;
  /** Plural names of the collections it writes rows into (their cached counts change with every write). */
  readonly writes: readonly string[];
  /** Its CTEs for these events, values bound through `params`; none when it has nothing to write. */
  statements(events: RecordEvent[], actor: RequestActor, params: SqlParams): EventStatement[];
}

/**
 * Writes the consequences of record events inside the transaction of the change itself, in one
 * statement of data-modifying CTEs (one round trip, whatever the number of subscribers). A
 * rolled-back write leaves none of them.
 */
@Injectable()
export class RecordEventBus implements OnApplicationBootstrap {
  private readonly subscribers: RecordEventSubscriber[] = [];

  constructor(private readonly catalog: CollectionCatalog) {}

  subscribe(subscriber: RecordEventSubscriber): void {
    this.subscribers.push(subscriber);
  }

  /** Collections whose rows a write's events may add (besides the written collection). */
  get writes(): string[] {
    return this.subscribers.flatMap((s) => s.writes);
  }

  /** Fails the start when a collection declares what no registered subscriber honours. */
  onApplicationBootstrap(): void {
    const provided = new Set(this.subscribers.map((s) => s.provides));
    const timeline = this.catalog.all().filter((m) => m.def.timeline);
    if (timeline.length > 0 && !provided.has('timeline')) {
      throw new Error(
        `Collections ${timeline.map((m) => m.plural).join(', ')} declare timeline: true, but no module registered a timeline subscriber`,
      );
    }
  }

  /** One statement for all the events of a write, whatever their number (subscribers bind record sets as JSON). */
  async record(tx: Queryable, events: RecordEvent[], actor: RequestActor): Promise<void> {
    if (events.length === 0) return;
    const params = new SqlParams();
    const statements = this.subscribers.flatMap((s) => s.statements(events, actor, params));
    if (statements.length === 0) return;
    const counted = statements.filter((s) => s.committed);
    const ctes = statements.map((s) => `${s.name} AS (${s.sql})`).join(', ');
    const select = counted.length ? counted.map((s, i) => `(SELECT count(*)::int FROM ${s.name}) AS "c${i}"`).join(', ') : '1';
    const [row] = await tx.query<Record<string, number>>(`WITH ${ctes} SELECT ${select}`, params.values);
    if (counted.length === 0) return;
    tx.afterCommit?.(() => counted.forEach((s, i) => s.committed!(row[`c${i}`])));
  }
}
