import type { CollectionMeta } from '../model/collection-meta';
import { SqlParams } from '../query/sql-params';
import type { RecordEvent } from '../model/record-events';
import { EVENT_RELATION, eventsFromJsonSql } from './event-rows';

/**
 * One write and its events as ONE statement of data-modifying CTEs: the change (CTEs named by
 * the statement owner that built it), its events as the relation `ev` (event-rows.ts), then the
 * CTEs the event subscribers add (audit, timeline, outbox rows), and what the statement answers.
 */
export interface EventfulWrite {
  /** The collections whose records the events are about. */
  collections: CollectionMeta[];
  /** `name AS (...)` CTEs of the change, in order. */
  ctes: string[];
  /** SELECT of the `ev` columns (EVENT_COLUMNS), over the CTEs. */
  events: string;
  /** What the statement answers: `SELECT <columns> FROM <from> [ORDER BY <orderBy>]`. */
  answer: { columns: string; from: string; orderBy?: string };
  /** The values of every placeholder so far; the subscribers add theirs. */
  params: SqlParams;
  /** A write of records by id whose text repeats (single-record writes): prepared once it is hot. */
  prepared?: boolean;
}

/** A subscriber's CTE: its name, unique in the statement, and its `INSERT ...`. */
export interface SubscriberCte {
  name: string;
  sql: string;
}

/**
 * The text of the statement: the write's CTEs, `ev`, the subscribers' CTEs, and the write's
 * answer with, beside each row, the number of rows each of the `counted` CTEs wrote (`__c0`...).
 */
export function eventfulStatementSql(write: EventfulWrite, subscribers: SubscriberCte[], counted: string[]): string {
  const ctes = [
    ...write.ctes,
    `${EVENT_RELATION} AS (${write.events})`,
    ...subscribers.map((s) => `${s.name} AS (${s.sql})`),
  ];
  const counts = counted.map((name, i) => `(SELECT count(*)::int FROM ${name}) AS "__c${i}"`);
  const { columns, from, orderBy } = write.answer;
  return `WITH ${ctes.join(', ')} SELECT ${[columns, ...counts].join(', ')} FROM ${from}${orderBy ? ` ORDER BY ${orderBy}` : ''}`;
}

/** A "write" of events computed in Node only (bound as one JSON record set): the subscribers' rows and nothing else. */
export function eventsOnlyWrite(events: RecordEvent[]): EventfulWrite {
  const params = new SqlParams();
  return {
    collections: [...new Set(events.map((e) => e.meta))],
    ctes: [],
    events: eventsFromJsonSql(events, params),
    answer: { columns: '1', from: '(SELECT 1) one' },
    params,
  };
}
