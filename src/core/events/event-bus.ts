import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { Queryable } from '../database/db';
import { StatementNames } from '../database/statement-names';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { RecordEvent } from '../model/record-events';
import { SqlParams } from '../query/sql-params';
import { eventfulStatementSql, eventsOnlyWrite, EventfulWrite, SubscriberCte } from '../repository/eventful-write';

/** One data-modifying CTE a subscriber adds to the statement of a write's events. */
export interface EventStatement extends SubscriberCte {
  /** Runs after the transaction committed, with the number of rows the CTE returned (a data-modifying one ends in `RETURNING 1`). */
  committed?: (rows: number) => void;
  /** Runs after the transaction committed, when the number of rows is not needed (nothing is counted). */
  afterCommit?: () => void;
}

/**
 * What the consequences of record events plug into: audit log, timeline, webhook outbox. Each
 * subscriber is registered by the module that owns its rows (core names none of them) and turns
 * a write's events into rows of its own.
 */
export interface RecordEventSubscriber {
  /** What it provides, for the start-up checks: `timeline` is required by collections with `timeline: true`. */
  readonly provides: string;
  /** Plural names of the collections it writes rows into (their cached counts change with every write). */
  readonly writes: readonly string[];
  /**
   * Its CTEs for the events of a write on these collections, reading them from the relation
   * `ev` (see repository/event-rows.ts), values bound through `params`; none when it has nothing to write.
   */
  statements(collections: CollectionMeta[], actor: RequestActor, params: SqlParams): EventStatement[];
}

/**
 * Writes the consequences of record events inside the transaction of the change itself, in one
 * statement of data-modifying CTEs (one round trip, whatever the number of subscribers). A
 * rolled-back write leaves none of them.
 */
@Injectable()
export class RecordEventBus implements OnApplicationBootstrap {
  private readonly subscribers: RecordEventSubscriber[] = [];
  private readonly names = new StatementNames();
  private written: readonly string[] = [];

  constructor(private readonly catalog: CollectionCatalog) {}

  subscribe(subscriber: RecordEventSubscriber): void {
    this.subscribers.push(subscriber);
    this.written = this.subscribers.flatMap((s) => s.writes);
  }

  /** Collections whose rows a write's events may add (besides the written collection). */
  get writes(): readonly string[] {
    return this.written;
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

  /** One statement for all the events of a write computed in Node, whatever their number (bound as one JSON record set). */
  async record(tx: Queryable, events: RecordEvent[], actor: RequestActor): Promise<void> {
    if (events.length > 0) await this.write(tx, eventsOnlyWrite(events), actor);
  }

  /** Runs a write and writes its events in one statement; the rows the write answers. */
  async write(tx: Queryable, write: EventfulWrite, actor: RequestActor): Promise<Row[]> {
    const statements = this.subscribers.flatMap((s) => s.statements(write.collections, actor, write.params));
    const counted = statements.filter((s) => s.committed);
    const text = eventfulStatementSql(
      write,
      statements,
      counted.map((s) => s.name),
    );
    const rows = await tx.query<Row>(text, write.params.values, write.prepared ? this.names.nameOf(text) : undefined);
    const written = counted.map((_, i) => (rows.length ? Number(rows[0][`__c${i}`]) : 0));
    for (const row of rows) for (let i = 0; i < counted.length; i++) delete row[`__c${i}`];
    onCommit(tx, statements, counted, written);
    return rows;
  }
}

/**
 * Registers the subscribers' hooks of a write to run once its transaction commits. Apart from
 * `write` on purpose: closures made in one function share its scope, so a hook made there kept
 * the write's rows and bound values alive until the commit (an import's single transaction held
 * every checkpoint's: 1.1 kB a row).
 */
function onCommit(tx: Queryable, statements: EventStatement[], counted: EventStatement[], written: number[]): void {
  const hooks = statements.filter((s) => s.afterCommit).map((s) => s.afterCommit!);
  if (hooks.length > 0) tx.afterCommit?.(() => hooks.forEach((hook) => hook()));
  const committed = counted.map((s) => s.committed!);
  if (committed.length > 0) tx.afterCommit?.(() => committed.forEach((hook, i) => hook(written[i])));
}
