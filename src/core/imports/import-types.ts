/**
 * The shapes an import (API.md section 17) passes from the reader to the writer: the job's
 * parameters, and each row of the file once read and checked. Pure types, no behaviour.
 *
 * A row's journey: bytes -> RawRow (import-reader.ts) -> ImportRow (import-row.ts, with the
 * ColumnPlan of import-columns.ts) -> the set-based writer, which resolves `relations`, matches
 * and writes `record`.
 */

/** What the rows do: create new records, create or update them, or update existing ones only. */
export type ImportOperation = 'create' | 'upsert' | 'update';

/** What an empty CSV cell means: leave the field as it is (unset on create), or clear it. */
export type ImportBlank = 'ignore' | 'clear';

/** The body's format: `text/csv` or `application/x-ndjson`. */
export type ImportFormat = 'csv' | 'ndjson';

/** Why a row was rejected (the `code` of the job's error report). */
export type ImportErrorCode =
  | 'INVALID_VALUE'
  | 'REQUIRED'
  | 'UNIQUE_CONFLICT'
  | 'DUPLICATE_IN_FILE'
  | 'NOT_FOUND'
  | 'RELATION_NOT_FOUND'
  | 'FORBIDDEN_ROW'
  | 'MALFORMED_ROW';

/**
 * One rejected row's problem: `line` is the 1-based physical line where the record starts (CSV:
 * the header is line 1; a quoted line break starts a new physical line; NDJSON: first record is
 * line 1). `column` is the CSV header column (or NDJSON key) the problem is about, null if none.
 */
export interface RowError {
  line: number;
  column: string | null;
  code: ImportErrorCode;
  message: string;
}

/** A relation set by a unique value of its target (`company.domainName.primaryLinkUrl` on people). */
export interface RelationColumn {
  /** The header, e.g. `company.domainName.primaryLinkUrl`. */
  column: string;
  /** The MANY_TO_ONE relation, e.g. `company`. */
  relation: string;
  /** Its join column on this collection, e.g. `companyId`. */
  joinColumn: string;
  /** The target collection's plural, e.g. `companies`. */
  target: string;
  /** The target's table, e.g. `company`. */
  targetTable: string;
  /** The storage column of the unique field in the target table, e.g. `domainNamePrimaryLinkUrl`. */
  targetColumn: string;
  /** The API path of that unique field on the target, e.g. `domainName.primaryLinkUrl`. */
  targetPath: string;
}

/** A relation value of one row to resolve (set-based, by the writer) into `record[joinColumn]`. */
export interface RelationValue {
  column: string;
  joinColumn: string;
  value: string;
}

/**
 * One row read and checked. `record` is the API body (the create body for `create`; a partial
 * update body for `update` and `upsert`, with `id` when given), undefined when the row is rejected
 * (`errors` not empty).
 */
export interface ImportRow {
  line: number;
  record?: Record<string, unknown>;
  /** ISO 8601, when the row has a non-empty `createdAt` (never inside `record`). */
  createdAt?: string;
  relations: RelationValue[];
  errors: RowError[];
}
