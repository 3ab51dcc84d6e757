import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { MAX_PARAMS } from '../database/sql';
import { RecordEventBus } from '../events/event-bus';
import { adminAccess } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { RecordEvent, recordEvent } from '../model/record-events';
import { insertRows } from '../records/insert-rows';
import { RecordChecks } from '../records/record-checks';
import { keyHolders, UniqueKey, uniqueKeys } from '../records/upsert-plan';
import type { EventfulWrite } from '../repository/eventful-write';
import { importStatements } from '../repository/import-statements';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { validateRecord } from '../validation/record-body';
import { columnOfMessage } from './import-row';
import type { ImportOperation, ImportRow, RelationColumn, RowError } from './import-types';

/** What a job writes with: its collection, key (with the import's context), operation and relation columns. */
export interface CheckpointContext {
  importId: string;
  meta: CollectionMeta;
  actor: RequestActor;
  operation: ImportOperation;
  relations: RelationColumn[];
}

/** What one checkpoint did. `keys`: what its accepted rows named, for the duplicates of later checkpoints. */
export interface CheckpointOutcome {
  created: number;
  updated: number;
  unchanged: number;
  errors: RowError[];
  keys: { key: string; line: number }[];
}

/** Rows whose record falls outside the key's rows once written: the checkpoint is written again without them. */
export class ForbiddenRows extends Error {
  constructor(readonly lines: number[]) {
    super(`rows outside the key's rows: ${lines.join(', ')}`);
  }
}

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
 * creates inserted and the updates patched (one each), their events recorded (one), the key's row
 * filter checked (one). A fixed number of statements whatever the rows' number; never one per row.
 */
@Injectable()
export class ImportWriter {
  private readonly keys = new Map<CollectionMeta, UniqueKey[]>();

  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly events: RecordEventBus,
    private readonly checks: RecordChecks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private keysOf(meta: CollectionMeta): UniqueKey[] {
    let keys = this.keys.get(meta);
    if (!keys) this.keys.set(meta, (keys = uniqueKeys(meta)));
    return keys;
  }

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
    live = await this.withChecks(ctx.meta, live, reject);
    live = await this.resolveRelations(tx, ctx, live, reject);
    live = await this.withoutDuplicates(tx, ctx, live, seen, reject);
    const { meta, actor, operation } = ctx;
    const keys = this.keysOf(meta);
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
    );
    const own = this.repositories.steps(meta, actor.access);
    const outside = await own.outsideScope(
      tx,
      candidates.map((row) => row.id as string),
    );
    const held = this.holders(keys, candidates);
    const byId = new Map(candidates.map((row) => [row.id as string, row]));
    const creates: ImportRow[] = [];
    const updates: { row: ImportRow; target: Row }[] = [];
    for (const row of live) {
      const matches = this.matches(row.record!, keys, held);
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
    const events: RecordEvent[] = [];
    const written: { row: ImportRow; id: string; updated?: boolean }[] = [];
    const codec = this.codecs.of(meta);
    const inserts = operation === 'upsert' ? this.asCreates(meta, creates, reject) : creates;
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
      // the events of the creates are made in SQL from the inserted rows (one statement a part of
      // at most MAX_PARAMS values); a check (a key's row filter) needs the rows alone
      const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
      for (let start = 0; start < tuples.length; start += perStatement) {
        const part = tuples.slice(start, start + perStatement);
        const rows = check
          ? await everyRow.insertMany(tx, columns, part)
          : await this.events.write(tx, this.createWrite(meta, columns, part), actor);
        const ids = new Set(rows.map((row) => row.id as string));
        part.forEach((tuple, i) => {
          if (ids.has(tuple[0] as string)) written.push({ row: group[start + i], id: tuple[0] as string });
        });
      }
      outcome.created += group.length;
    }
    if (updates.length > 0) {
      const columns = new Set<string>();
      const changes = updates.map(({ row, target }) => {
        const { id: _id, ...fields } = row.record!;
        const assigned = codec.updateAssignments(fields);
        const change: Row = { __id: target.id, __set: assigned.columns.map((c) => c.column) };
        assigned.columns.forEach((c, i) => {
          columns.add(c.column);
          const value = assigned.values[i];
          change[c.column] = c.type === 'RAW_JSON' && typeof value === 'string' ? JSON.parse(value) : value;
        });
        return change;
      });
      const after = new Map(
        (await everyRow.patchEach(tx, [...columns], changes)).map((row) => [row.id as string, row]),
      );
      for (const { row, target } of updates) {
        const previous = codec.toRecord(target);
        const current = codec.toRecord(after.get(target.id as string)!);
        const updated = recordEvent(meta, 'updated', { ...previous, deletedAt: current.deletedAt }, current);
        const restored = previous.deletedAt !== null;
        if (restored) events.push(recordEvent(meta, 'restored', undefined, current));
        if (updated.updatedFields!.length > 0) events.push(updated);
        if (restored || updated.updatedFields!.length > 0) outcome.updated++;
        else outcome.unchanged++;
        written.push({ row, id: target.id as string, updated: true });
      }
    }
    const escaped = await own.outsideScope(
      tx,
      written.filter((w) => !outside.has(w.id)).map((w) => w.id),
    );
    if (escaped.size > 0) throw new ForbiddenRows(written.filter((w) => escaped.has(w.id)).map((w) => w.row.line));
    if (!check) await this.events.record(tx, events, actor);
    for (const { row, id, updated } of written) {
      // an updated record may be named by other keys in a later row: its id is remembered too
      const named = this.identities(row.record!, keys);
      for (const key of updated && !named.includes(`id:${id}`) ? [`id:${id}`, ...named] : named) {
        seen.set(key, row.line);
        outcome.keys.push({ key, line: row.line });
      }
    }
    outcome.errors.sort((a, b) => a.line - b.line);
    return outcome;
  }

  /** The bulk create's statement with its events, never prepared (its text changes with the number of rows). */
  private createWrite(meta: CollectionMeta, columns: string[], tuples: unknown[][]): EventfulWrite {
    return { ...this.repositories.writes(meta, undefined).create(columns, tuples)!, prepared: false };
  }

  /** Who holds each id and unique value among the candidates (as upserts match). */
  private holders(keys: UniqueKey[], candidates: Row[]): { byId: Set<string>; byKey: Map<string, Row>[] } {
    return { byId: new Set(candidates.map((row) => row.id as string)), byKey: keyHolders(keys, candidates) };
  }

  /** Each existing record a row names (by id, by each unique value), with the paths that name it. */
  private matches(record: Row, keys: UniqueKey[], held: ReturnType<ImportWriter['holders']>): Map<string, string[]> {
    const matches = new Map<string, string[]>();
    const add = (id: string, path: string) => matches.set(id, [...(matches.get(id) ?? []), path]);
    if (typeof record.id === 'string' && held.byId.has(record.id)) add(record.id, 'id');
    keys.forEach((key, k) => {
      const value = key.valueOf(record);
      const row = value === undefined ? undefined : held.byKey[k].get(value);
      if (row) add(row.id as string, key.path);
    });
    return matches;
  }

  private identities(record: Row, keys: UniqueKey[]): string[] {
    const own = typeof record.id === 'string' ? [`id:${record.id}`] : [];
    return [
      ...own,
      ...keys.flatMap((key) => (key.valueOf(record) === undefined ? [] : [`${key.path}:${key.valueOf(record)}`])),
    ];
  }

  /**
   * The checks every write path makes beyond the fields' declarations (WriteUnit.checkFields): the
   * collection's registered record checks (a role's grants) and its `checkFields` hook (a webhook's
   * target must be public). A row with a problem is `INVALID_VALUE` with the API's message.
   */
  private async withChecks(
    meta: CollectionMeta,
    rows: ImportRow[],
    reject: (row: ImportRow, error: RowError) => void,
  ): Promise<ImportRow[]> {
    const hook = meta.def.hooks?.checkFields;
    const kept: ImportRow[] = [];
    for (const row of rows) {
      const problems = [
        ...this.checks.problems(meta, row.record!),
        ...(hook ? await hook(row.record!, this.config) : []),
      ];
      for (const message of problems)
        reject(row, { line: row.line, column: columnOfMessage(message), code: 'INVALID_VALUE', message });
      if (problems.length === 0) kept.push(row);
    }
    return kept;
  }

  /** Rows naming a record an earlier row of the file named (same id or unique value) are `DUPLICATE_IN_FILE`. */
  private async withoutDuplicates(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    seen: Map<string, number>,
    reject: (row: ImportRow, error: RowError) => void,
  ): Promise<ImportRow[]> {
    const keys = this.keysOf(ctx.meta);
    const named = rows.map((row) => this.identities(row.record!, keys));
    const earlier = await importStatements.earlierKeys(tx, ctx.importId, [...new Set(named.flat())]);
    const batch = new Map<string, number>();
    return rows.filter((row, i) => {
      for (const key of named[i]) {
        const line = [seen.get(key), batch.get(key), earlier.get(key)].find((l) => l !== undefined && l < row.line);
        if (line !== undefined) {
          const [path, value] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
          reject(row, {
            line: row.line,
            column: path,
            code: 'DUPLICATE_IN_FILE',
            message: `Line ${line} names the same record (${path} '${value}')`,
          });
          return false;
        }
      }
      for (const key of named[i]) if (!batch.has(key)) batch.set(key, row.line);
      return true;
    });
  }

  /** Relations set by a unique value of their target, and join columns, pointed at existing records: `RELATION_NOT_FOUND` otherwise. */
  private async resolveRelations(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    reject: (row: ImportRow, error: RowError) => void,
  ): Promise<ImportRow[]> {
    const failed = new Set<ImportRow>();
    for (const column of ctx.relations) {
      const target = this.catalog.require(column.target);
      const values = [
        ...new Set(rows.flatMap((r) => r.relations.filter((v) => v.column === column.column).map((v) => v.value))),
      ];
      const found = await this.repositories
        .steps(target, adminAccess('import'))
        .idsByValues(tx, column.targetColumn, values);
      for (const row of rows) {
        const value = row.relations.find((v) => v.column === column.column)?.value;
        if (value === undefined) continue;
        const id = found.get(value);
        if (id) row.record![column.joinColumn] = id;
        else if (!failed.has(row)) {
          failed.add(row);
          const message = `No ${target.def.singular} has ${column.column.slice(column.relation.length + 1)} '${value}'`;
          reject(row, { line: row.line, column: column.column, code: 'RELATION_NOT_FOUND', message });
        }
      }
    }
    for (const relation of ctx.meta.manyToOne) {
      const given = rows.filter((r) => !failed.has(r) && typeof r.record![relation.joinColumn] === 'string');
      const byValue = new Set(ctx.relations.filter((c) => c.joinColumn === relation.joinColumn));
      const direct = given.filter((r) => !r.relations.some((v) => [...byValue].some((c) => c.column === v.column)));
      if (direct.length === 0) continue;
      const target = this.catalog.require(relation.target);
      const ids = [...new Set(direct.map((r) => r.record![relation.joinColumn] as string))];
      const existing = await this.repositories.steps(target, adminAccess('import')).existingIds(tx, ids);
      for (const row of direct) {
        const id = row.record![relation.joinColumn] as string;
        if (existing.has(id)) continue;
        failed.add(row);
        reject(row, {
          line: row.line,
          column: relation.joinColumn,
          code: 'RELATION_NOT_FOUND',
          message: `${relation.joinColumn} '${id}' does not match an existing record`,
        });
      }
    }
    return rows.filter((row) => !failed.has(row));
  }

  /** Upsert rows that create a record must be whole creates (required fields): `REQUIRED` / `INVALID_VALUE` otherwise. */
  private asCreates(
    meta: CollectionMeta,
    rows: ImportRow[],
    reject: (row: ImportRow, error: RowError) => void,
  ): ImportRow[] {
    return rows.filter((row) => {
      const result = validateRecord(meta.def.create, row.record, true, this.config.maxBodyDepth);
      if (result.ok) return true;
      for (const message of result.messages) {
        const code = / is required$/.test(message) ? 'REQUIRED' : 'INVALID_VALUE';
        reject(row, { line: row.line, column: columnOfMessage(message), code, message });
      }
      return false;
    });
  }
}
