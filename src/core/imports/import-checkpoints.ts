import { Injectable } from '@nestjs/common';
import { constraintMessage } from '../database/constraint-messages';
import { Queryable } from '../database/db';
import { constraintViolation, isBadInputError, PgError } from '../database/db-errors';
import { CollectionCatalog } from '../model/collection-catalog';
import type { ImportErrorCode, ImportRow, RowError } from './import-types';
import { CheckpointContext, CheckpointOutcome, ForbiddenRows } from './import-checkpoint';
import { ImportWriter } from './import-writer';

/** What a checkpoint did, with its rejected rows counted once each and where `max_errors` stopped it. */
export interface CheckpointResult extends CheckpointOutcome {
  failed: number;
  /** Rows after the stop (neither checked nor reported). */
  unprocessed: number;
  /** The line of the rejected row that reached `max_errors + 1`, when it did. */
  stoppedAt?: number;
}

const CODES: Record<string, ImportErrorCode> = {
  unique: 'UNIQUE_CONFLICT',
  'foreign-key': 'RELATION_NOT_FOUND',
  'not-null': 'REQUIRED',
  check: 'INVALID_VALUE',
};

/**
 * One report entry per rejected row (API.md section 17: each once): its first problem's column and
 * code, and every problem's message, in the order found.
 */
function oncePerRow(errors: RowError[]): RowError[] {
  const byLine = new Map<number, RowError>();
  for (const error of errors) {
    const first = byLine.get(error.line);
    if (!first) byLine.set(error.line, { ...error });
    else if (!first.message.split('; ').includes(error.message)) first.message += `; ${error.message}`;
  }
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

const distinctLines = (errors: RowError[]) => [...new Set(errors.map((e) => e.line))].sort((a, b) => a - b);

/**
 * A checkpoint of an import written under a savepoint, so that what goes wrong stays with the rows
 * it concerns: rows whose records leave the key's rows are rejected (`FORBIDDEN_ROW`) and the
 * rest written again; a statement the database refuses is retried on each half of the rows until
 * the row it is about is found and rejected with the API's message (a handful of statements more,
 * only then); past `max_errors`, the checkpoint is written again up to the row that reached it. A
 * check (dry run, first pass of an atomic job) rolls the savepoint back and keeps the outcome.
 */
@Injectable()
export class ImportCheckpoints {
  constructor(
    private readonly writer: ImportWriter,
    private readonly catalog: CollectionCatalog,
  ) {}

  async write(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    check: boolean,
    maxFailures: number,
  ): Promise<CheckpointResult> {
    await tx.query('SAVEPOINT import_checkpoint');
    let outcome = await this.attempt(tx, ctx, rows, check, new Map(), 0);
    let lines = distinctLines(outcome.errors);
    let stoppedAt: number | undefined;
    let kept = rows;
    if (lines.length > maxFailures) {
      stoppedAt = lines[maxFailures];
      kept = rows.filter((row) => row.line <= stoppedAt!);
      await tx.query('ROLLBACK TO SAVEPOINT import_checkpoint');
      outcome = await this.attempt(tx, ctx, kept, check, new Map(), 0);
      outcome.errors = outcome.errors.filter((e) => e.line <= stoppedAt!);
      lines = distinctLines(outcome.errors);
    }
    await tx.query(check ? 'ROLLBACK TO SAVEPOINT import_checkpoint' : 'RELEASE SAVEPOINT import_checkpoint');
    return {
      ...outcome,
      errors: oncePerRow(outcome.errors),
      failed: lines.length,
      unprocessed: rows.length - kept.length,
      stoppedAt,
    };
  }

  private async attempt(
    tx: Queryable,
    ctx: CheckpointContext,
    rows: ImportRow[],
    check: boolean,
    seen: Map<string, number>,
    depth: number,
  ): Promise<CheckpointOutcome> {
    const savepoint = `import_part_${depth}`;
    await tx.query(`SAVEPOINT ${savepoint}`);
    try {
      const outcome = await this.writer.write(tx, ctx, rows, check, seen);
      await tx.query(`RELEASE SAVEPOINT ${savepoint}`);
      return outcome;
    } catch (error) {
      await tx.query(`ROLLBACK TO SAVEPOINT ${savepoint}`);
      if (error instanceof ForbiddenRows) {
        const lines = new Set(error.lines);
        for (const row of rows)
          if (lines.has(row.line))
            row.errors.push({
              line: row.line,
              column: null,
              code: 'FORBIDDEN_ROW',
              message: 'The record would be outside the rows this API key may write',
            });
        return this.attempt(tx, ctx, rows, check, seen, depth + 1);
      }
      const refused = this.refusal(error as PgError);
      if (!refused) throw error;
      const live = rows.filter((row) => row.errors.length === 0);
      if (live.length === 1) {
        live[0].errors.push({ line: live[0].line, ...refused });
        return this.attempt(tx, ctx, rows, check, seen, depth + 1);
      }
      // the statement refused one of the rows: find it by halves
      const half = Math.ceil(live.length / 2);
      const first = new Set(live.slice(0, half));
      const a = await this.attempt(
        tx,
        ctx,
        rows.filter((row) => row.errors.length > 0 || first.has(row)),
        check,
        seen,
        depth + 1,
      );
      const b = await this.attempt(tx, ctx, live.slice(half), check, seen, depth + 1);
      return {
        created: a.created + b.created,
        updated: a.updated + b.updated,
        unchanged: a.unchanged + b.unchanged,
        errors: [...a.errors, ...b.errors].sort((x, y) => x.line - y.line),
        keys: [...a.keys, ...b.keys],
      };
    }
  }

  /** The row error of a statement the database refused because of a row's values; undefined for any other failure. */
  private refusal(error: PgError): Omit<RowError, 'line'> | undefined {
    const violation = constraintViolation(error);
    if (violation) {
      const column =
        violation.table && violation.column
          ? (this.catalog.byTableName(violation.table)?.pathOfColumn(violation.column) ?? null)
          : null;
      return { column, code: CODES[violation.kind], message: constraintMessage(violation, this.catalog) };
    }
    if (isBadInputError(error)) return { column: null, code: 'INVALID_VALUE', message: 'A value cannot be stored' };
    return undefined;
  }
}
