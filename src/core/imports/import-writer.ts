import { Injectable } from '@nestjs/common';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { adminAccess } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';
import { insertRows } from '../records/insert-rows';
import { patchChanges } from '../records/patch-changes';
import type { EventfulWrite } from '../repository/eventful-write';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import {
  CheckpointContext,
  CheckpointOutcome,
  ForbiddenRows,
  holdersOf,
  identities,
  matchesOf,
} from './import-checkpoint';
import { ImportRowChecks } from './import-row-checks';
import type { ImportRow, RowError } from './import-types';

const forbidden = (line: number): RowError => ({
  line,
  column: null,
  code: 'FORBIDDEN_ROW',
  message: 'The record is outside the rows this API key may write',
});

/**
 * Writes one checkpoint of an import (API.md section 17) in the caller's transaction, set-based:
 * relations by unique value resolved and join columns checked (one statement per relation
 * column), duplicates within the file found (one), the records the rows name locked (one), the
 * creates inserted and the updates patched, each with its events (one each), the key's row
 * filter checked (one). A fixed number of statements whatever the rows' number; never one per row.
 */
@Injectable()
export class ImportWriter {
  constructor(
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly events: RecordEventBus,
    private readonly rowChecks: ImportRowChecks,
  ) {}

  /**
   * `check`: the rows are written to be rolled back (a dry run, the first pass of an atomic job):
   * without their events. `seen`: the keys of this checkpoint's rows already written (a checkpoint
   * written in parts).
   */
  async write(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    check: boolean,
    seen = new Map<string, number>(),
  ): Promise<CheckpointOutcome> {
    const outcome: CheckpointOutcome = { created: 0, updated: 0, unchanged: 0, errors: [], keys: [] };
    const reject = (row: ImportRow, error: RowError) => {
      row.errors.push(error);
      outcome.errors.push(error);
    };
    let live = rows.filter((row) => {
      outcome.errors.push(...row.errors);
      return row.errors.length === 0;
    });
    live = await this.rowChecks.checked(tx, ctx, live, seen, reject);
    const { meta, actor, operation } = ctx;
    const keys = this.rowChecks.keysOf(meta);
    const everyRow = this.repositories.steps(meta, adminAccess('import'));
    const ids = live.map((row) => row.record!.id).filter((id): id is string => typeof id === 'string');
    const values = keys.map((key) => ({
      column: key.column,
      values: [...new Set(live.map((row) => key.valueOf(row.record!)).filter((v): v is string => v !== undefined))],
    }));
    const candidates = await everyRow.lockByKeys(
      tx,
      ids,
      values.filter((k) => k.values.length > 0),
      'keys',
    );
    const own = this.repositories.steps(meta, actor.access);
    const outside = await own.outsideScope(
      tx,
      candidates.map((row) => row.id as string),
    );
    const held = holdersOf(keys, candidates);
    const byId = new Map(candidates.map((row) => [row.id as string, row]));
    const creates: ImportRow[] = [];
    const updates: { row: ImportRow; target: Row }[] = [];
    for (const row of live) {
      const matches = matchesOf(row.record!, keys, held);
      if (matches.size > 1) {
        const named = [...matches.values()];
        const paths = named.map((p) => p.join(' and '));
        reject(row, {
          line: row.line,
          column: named[1][0],
          code: 'UNIQUE_CONFLICT',
          message: `${paths.join(' / ')} match different records`,
        });
      } else if (matches.size === 1) {
        const [[id, paths]] = [...matches.entries()];
        if (operation === 'create') {
          const path = paths[0];
          const value = path === 'id' ? '' : ` '${keys.find((k) => k.path === path)!.valueOf(row.record!)}'`;
          const message =
            path === 'id'
              ? 'A duplicate entry was detected'
              : `A duplicate entry was detected: ${path}${value} is already used by another record`;
          reject(row, { line: row.line, column: path, code: 'UNIQUE_CONFLICT', message });
        } else if (outside.has(id)) reject(row, forbidden(row.line));
        else updates.push({ row, target: byId.get(id)! });
      } else if (operation === 'update') {
        const by = ['id', ...keys.map((k) => k.path)].join(', ');
        reject(row, {
          line: row.line,
          column: null,
          code: 'NOT_FOUND',
          message: `No ${meta.def.singular} matches this row (by ${by})`,
        });
      } else creates.push(row);
    }
    const written: { row: ImportRow; id: string; updated?: boolean }[] = [];
    const codec = this.codecs.of(meta);
    const inserts = operation === 'upsert' ? this.rowChecks.asCreates(meta, creates, reject) : creates;
    // a check of a key without a row filter need not insert: what could refuse a create (its
    // values, unique values, relations, duplicates) is known without it
    const scoped = !actor.access.admin && actor.access.grant(meta.plural)?.rows !== undefined;
    if (check && !scoped) {
      for (const row of inserts) written.push({ row, id: '' });
      outcome.created += inserts.length;
    }
    for (const group of check && !scoped
      ? []
      : [inserts.filter((r) => r.createdAt === undefined), inserts.filter((r) => r.createdAt !== undefined)]) {
      if (group.length === 0) continue;
      const { columns, tuples } = insertRows(
        meta,
        codec,
        group.map((r) => r.record!),
        actor,
      );
      if (group[0].createdAt !== undefined) {
        columns.push('createdAt');
        group.forEach((r, i) => tuples[i].push(r.createdAt));
      }
      // the events of the creates are made in SQL from the inserted rows, bound as one JSON value
      // (one statement whatever their number); a check (a key's row filter) needs the rows alone
      const rows = check
        ? await everyRow.insertMany(tx, columns, tuples)
        : await this.events.write(tx, this.createWrite(meta, columns, tuples), actor);
      const ids = new Set(rows.map((row) => row.id as string));
      tuples.forEach((tuple, i) => {
        if (ids.has(tuple[0] as string)) written.push({ row: group[i], id: tuple[0] as string });
      });
      outcome.created += group.length;
    }
    if (updates.length > 0) {
      const { columns, changes } = patchChanges(
        codec,
        updates.map(({ row, target }) => ({ id: target.id as string, fields: row.record! })),
      );
      // the patch and its events in one statement; a check without a row filter counts what the
      // write would do without writing (as its creates), one with a row filter writes without events
      const patch = this.repositories.writes(meta, undefined).patch(columns, changes);
      const patched =
        check && !scoped
          ? everyRow.previewPatch(tx, columns, changes)
          : check
            ? everyRow.writeWithoutEvents(tx, patch)
            : this.events.write(tx, patch, actor);
      const changed = new Map((await patched).map((row) => [row.id as string, row.__changed === true]));
      for (const { row, target } of updates) {
        if (changed.get(target.id as string)) outcome.updated++;
        else outcome.unchanged++;
        written.push({ row, id: target.id as string, updated: true });
      }
    }
    const escaped = await own.outsideScope(
      tx,
      written.filter((w) => !outside.has(w.id)).map((w) => w.id),
    );
    if (escaped.size > 0) throw new ForbiddenRows(written.filter((w) => escaped.has(w.id)).map((w) => w.row.line));
    for (const { row, id, updated } of written) {
      // an updated record may be named by other keys in a later row: its id is remembered too
      const named = identities(row.record!, keys);
      for (const key of updated && !named.includes(`id:${id}`) ? [`id:${id}`, ...named] : named) {
        seen.set(key, row.line);
        outcome.keys.push({ key, line: row.line });
      }
    }
    outcome.errors.sort((a, b) => a.line - b.line);
    return outcome;
  }

  /**
   * The bulk create's statement with its events, its rows bound as one JSON value (its text the
   * same for the same columns), answering the ids alone: the records are not read back.
   */
  private createWrite(meta: CollectionMeta, columns: string[], tuples: unknown[][]): EventfulWrite {
    const write = this.repositories.writes(meta, undefined).createFromJson(columns, tuples);
    return { ...write, answer: { ...write.answer, columns: '"id"' } };
  }
}
