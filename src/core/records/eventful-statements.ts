import { Injectable } from '@nestjs/common';
import { Queryable } from '../database/db';
import { diffSql, updatedFieldsSql } from '../events/event-relation';
import { RecordEventBus } from '../events/event-bus';
import { RecordAction } from '../events/record-events';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { SqlParams } from '../query/apply-query';
import { Repositories } from '../repository/repositories';

const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** A write as CTEs ending in `u` (the changed rows, with their columns) and the `ev` SELECT of its events. */
export interface EventfulStatement {
  params: SqlParams;
  ctes: string[];
  events: string;
  /** What the statement answers (default: the columns of `u`, by id). */
  answer?: { columns?: string; from?: string; orderBy?: string };
  /** Records by id, the same text again and again (single-record writes): prepared once hot. */
  prepared?: boolean;
}

/**
 * Writes whose events PostgreSQL computes from the written rows, each ONE statement (the change,
 * its audit, timeline and outbox rows as data-modifying CTEs): set-based writes of any number of
 * records, and single-record writes sent without BEGIN/COMMIT (one statement is atomic).
 */
@Injectable()
export class EventfulStatements {
  constructor(
    private readonly repositories: Repositories,
    private readonly events: RecordEventBus,
  ) {}

  /** Runs the statement; the rows it answers. */
  run(db: Queryable, meta: CollectionMeta, actor: RequestActor, statement: EventfulStatement): Promise<Row[]> {
    const answer = statement.answer ?? {};
    return this.events.write(
      db,
      {
        ctes: statement.ctes,
        events: statement.events,
        collections: [meta],
        answer: {
          columns: answer.columns ?? this.repositories.bulk(meta).columnNames,
          from: answer.from ?? 'u',
          orderBy: answer.orderBy ?? '"id"',
        },
        params: statement.params,
        prepared: statement.prepared,
      },
      actor,
    );
  }

  /** The `ev` columns of events `action` on the rows `r` of `from`, with the record copies `before` and `after` (SQL over `r`). */
  eventsOf(meta: CollectionMeta, action: RecordAction, from: string, before: string, after: string): string {
    return (
      `SELECT ${literal(`${meta.def.singular}.${action}`)} AS "name", '${action}' AS "action", ${literal(meta.def.singular)} AS "objectName", ` +
      `r."id" AS "recordId", ${before} AS "before", ${after} AS "after", NULL::jsonb AS "diff", NULL::jsonb AS "updatedFields" FROM ${from} r`
    );
  }

  /**
   * The same partial update of every record `targets` selects (`SELECT "id", <record JSON> AS
   * "json"`, locked when it must be): `u` returns each record's copy before the change beside its
   * columns after it (the UPDATE joins `b`), events `updated` only for records whose fields changed
   * (only the fields of the assigned columns can have). `atMost`: nothing is updated when
   * `targets` selects more records than that (the caller tells none from too many).
   */
  update(
    meta: CollectionMeta,
    targets: string,
    columns: string[],
    values: unknown[],
    params: SqlParams,
    atMost?: number,
  ): EventfulStatement {
    const bulk = this.repositories.bulk(meta);
    const guard = atMost === undefined ? undefined : `(SELECT count(*) FROM b) <= ${atMost}`;
    const updated = bulk.updateJoined('b', columns, values, params, 'b."json" AS "__before"', guard);
    const assigned = new Set(columns);
    const fields = meta.fields
      .filter((f) => meta.columnsByField.get(f.name)!.some((c) => assigned.has(c.column)))
      .map((f) => f.name);
    const changes = `SELECT u."id", u."__before" AS "before", ${bulk.recordJson('u')} AS "after" FROM u`;
    const diffs = `SELECT c.*, ${diffSql('c."before"', 'c."after"', fields)} AS "diff" FROM c`;
    const events =
      `SELECT ${literal(`${meta.def.singular}.updated`)} AS "name", 'updated' AS "action", ${literal(meta.def.singular)} AS "objectName", ` +
      `d."id" AS "recordId", d."before", d."after", d."diff", ${updatedFieldsSql(meta, 'd."diff"', fields)} AS "updatedFields" ` +
      `FROM d WHERE d."diff" <> '{}'::jsonb`;
    // materialized: each record copy is built once, not once per reference
    const ctes = [
      `b AS MATERIALIZED (${targets})`,
      `u AS (${updated})`,
      `c AS MATERIALIZED (${changes})`,
      `d AS MATERIALIZED (${diffs})`,
    ];
    return { params, ctes, events };
  }
}
