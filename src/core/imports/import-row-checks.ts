import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RecordChecks } from '../records/record-checks';
import { UniqueKey, uniqueKeys } from '../records/upsert-plan';
import { importRowStatements } from '../repository/import-row-statements';
import { Repositories } from '../repository/repositories';
import { validateRecord } from '../validation/record-body';
import { CheckpointContext, identities, Reject } from './import-checkpoint';
import { columnOfMessage } from './import-row';
import type { ImportRow } from './import-types';

/**
 * The checks of a checkpoint's rows beyond their values (API.md section 17), each set-based: the
 * record checks of API writes, relations by unique value and join columns (one statement per
 * relation), duplicates within the file (one statement); and the whole-create check of upsert rows
 * that create. Each returns the rows that pass; the others are rejected with their code.
 */
@Injectable()
export class ImportRowChecks {
  private readonly keys = new Map<CollectionMeta, UniqueKey[]>();

  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly checks: RecordChecks,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The unique keys of a collection (upserts' matching keys), worked out once. */
  keysOf(meta: CollectionMeta): UniqueKey[] {
    let keys = this.keys.get(meta);
    if (!keys) this.keys.set(meta, (keys = uniqueKeys(meta)));
    return keys;
  }

  /** The rows that pass the record checks, whose relations exist, and that no earlier row names (`seen`: this checkpoint's, written). */
  async checked(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    seen: Map<string, number>,
    reject: Reject,
  ): Promise<ImportRow[]> {
    const passed = await this.withChecks(ctx.meta, rows, reject);
    const related = await this.resolveRelations(tx, ctx, passed, reject);
    return this.withoutDuplicates(tx, ctx, related, seen, reject);
  }

  /**
   * The checks every write path makes beyond the fields' declarations (WriteUnit.checkFields): the
   * collection's registered record checks (a role's grants) and its `checkFields` hook (a webhook's
   * target must be public). A row with a problem is `INVALID_VALUE` with the API's message.
   */
  private async withChecks(meta: CollectionMeta, rows: ImportRow[], reject: Reject): Promise<ImportRow[]> {
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
    reject: Reject,
  ): Promise<ImportRow[]> {
    const keys = this.keysOf(ctx.meta);
    const named = rows.map((row) => identities(row.record!, keys));
    const earlier = await importRowStatements.earlierKeys(tx, ctx.importId, [...new Set(named.flat())]);
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
    reject: Reject,
  ): Promise<ImportRow[]> {
    const failed = new Set<ImportRow>();
    for (const column of ctx.relations) {
      const target = this.catalog.require(column.target);
      const values = [
        ...new Set(rows.flatMap((r) => r.relations.filter((v) => v.column === column.column).map((v) => v.value))),
      ];
      const found = await this.repositories.of(target, undefined).idsByValues(tx, column.targetColumn, values);
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
      const existing = await this.repositories.of(target, undefined).existingIds(tx, ids);
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
  asCreates(meta: CollectionMeta, rows: ImportRow[], reject: Reject): ImportRow[] {
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
