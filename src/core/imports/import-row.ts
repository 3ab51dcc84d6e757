import { FieldDefinition, FieldType } from '../fields/field-definition';
import { isIsoDateTime, isPlainObject } from '../fields/field-rules';
import type { CollectionMeta } from '../model/collection-meta';
import { validateRecord } from '../validation/record-body';
import { ColumnPlan, IGNORED_COLUMNS } from './import-columns';
import type { RawRow } from './import-reader';
import type { ImportBlank, ImportOperation, ImportRow, RelationValue, RowError } from './import-types';

/**
 * One raw row of an import (API.md section 17) to the API body it stands for, checked exactly as
 * a write body of the collection (the create DTO for `create`, the update DTO for `update` and
 * `upsert`), so each message is the one an API write would give.
 *
 * CSV cells, by the type of their field or sub-field:
 *   NUMBER, NUMERIC, POSITION  decimal text -> number      BOOLEAN   true / false (any case) -> boolean
 *   ARRAY, MULTI_SELECT, RAW_JSON (list-like sub-fields too)  JSON text -> its value
 *   anything else (TEXT, UUID, SELECT, DATE_TIME, DATE...)    the text as it is
 * Text that does not convert is passed on as it is, for the validator's own message; JSON text that
 * does not parse is an INVALID_VALUE of its own. An empty cell: `ignore` leaves the field (or
 * sub-field) out; `clear` sets it to its empty value: null when it is nullable, else '' for text
 * and [] for arrays, else null (which the validator refuses by name). `id` and `createdAt` cells
 * that are empty are left out; `createdAt` is kept beside the record, never in it.
 *
 * NDJSON values are create bodies as they are (plus `id`, `createdAt`; `updatedAt`, `deletedAt`
 * ignored); a field the key may not write is refused by name before any value is checked.
 * Relations by a unique value are a CSV feature: an NDJSON row sets join columns (`companyId`).
 */

/** How rows are converted: the job's operation and blank policy, and the body depth limit. */
export interface ConvertOptions {
  operation: ImportOperation;
  blank: ImportBlank;
  maxBodyDepth?: number;
}

const JSON_TYPES: readonly FieldType[] = ['ARRAY', 'MULTI_SELECT', 'RAW_JSON'];
const DECIMAL = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

/** The value an empty cell clears a field or sub-field to. */
function emptyValue(def: FieldDefinition): unknown {
  if (def.nullable) return null;
  if (def.type === 'TEXT' || def.type === 'RICH_TEXT') return '';
  if (def.type === 'ARRAY' || def.type === 'MULTI_SELECT') return [];
  return null;
}

/** A non-empty cell's value for its field type, or the message of JSON text that does not parse. */
function cellValue(def: FieldDefinition, column: string, text: string): { value: unknown } | { error: string } {
  if (JSON_TYPES.includes(def.type)) {
    try {
      return { value: JSON.parse(text) as unknown };
    } catch {
      const example = def.type === 'RAW_JSON' ? '{"key":"value"} or ["a","b"]' : '["a","b"]';
      return { error: `'${column}' must be JSON text, e.g. ${example}` };
    }
  }
  if (def.type === 'NUMBER' || def.type === 'NUMERIC' || def.type === 'POSITION')
    return { value: DECIMAL.test(text) ? Number(text) : text };
  if (def.type === 'BOOLEAN') return { value: /^(true|false)$/i.test(text) ? text.toLowerCase() === 'true' : text };
  return { value: text };
}

/** The path a validation message is about: `name.firstName`, `companyId`, `id`; null if none. */
export function columnOfMessage(message: string): string | null {
  const patterns = [
    /^property ([\w.]+) should not exist$/,
    /\(([\w.]+)\)$/,
    /for field "([\w.]+)"$/,
    /^([\w.]+) (?:must|is|should)\b/,
  ];
  for (const pattern of patterns) {
    const m = pattern.exec(message);
    if (m) return m[1];
  }
  return null;
}

/** A body built from a row, before validation. */
interface Draft {
  body: Record<string, unknown>;
  createdAt?: string;
  relations: RelationValue[];
  errors: RowError[];
}

function readCreatedAt(draft: Draft, line: number, column: string, value: unknown): void {
  if (isIsoDateTime(value)) draft.createdAt = value;
  else {
    const message = 'createdAt must be an ISO 8601 date-time, e.g. 2026-11-21T10:04:05.123Z';
    draft.errors.push({ line, column, code: 'INVALID_VALUE', message });
  }
}

/** The cells of a CSV row to a body, by the plan of its header. */
function draftOfCells(plan: ColumnPlan, line: number, cells: string[], blank: ImportBlank): Draft {
  const draft: Draft = { body: {}, relations: [], errors: [] };
  const setByCell = new Set<string>(); // join columns a non-empty cell sets (directly or by value)
  const invalid = (column: string, message: string) =>
    draft.errors.push({ line, column, code: 'INVALID_VALUE', message });
  plan.columns.forEach((col, i) => {
    const text = cells[i] ?? '';
    if (col.kind === 'ignored' || col.kind === 'relation') return;
    if (text === '') {
      if (blank === 'ignore' || col.kind === 'id' || col.kind === 'createdAt') return;
      if (col.kind === 'field') draft.body[col.field.name] = emptyValue(col.field);
      else ((draft.body[col.field.name] ??= {}) as Record<string, unknown>)[col.sub.name] = emptyValue(col.sub);
      return;
    }
    if (col.kind === 'id') draft.body.id = text;
    else if (col.kind === 'createdAt') readCreatedAt(draft, line, col.header, text);
    else {
      const converted = cellValue(col.kind === 'sub' ? col.sub : col.field, col.header, text);
      if ('error' in converted) return invalid(col.header, converted.error);
      if (col.kind === 'field') {
        draft.body[col.field.name] = converted.value;
        if (col.field.relation) setByCell.add(col.field.name);
      } else ((draft.body[col.field.name] ??= {}) as Record<string, unknown>)[col.sub.name] = converted.value;
    }
  });
  plan.columns.forEach((col, i) => {
    if (col.kind !== 'relation') return;
    const { joinColumn, relation, column } = col.relation;
    const value = cells[i] ?? '';
    if (value === '') {
      if (blank === 'clear' && !(joinColumn in draft.body)) draft.body[joinColumn] = null;
      return;
    }
    if (setByCell.has(joinColumn))
      return invalid(column, `Column '${column}' sets ${relation}, which another column sets too`);
    setByCell.add(joinColumn);
    delete draft.body[joinColumn]; // an empty join column cell (cleared) gives way to the value
    draft.relations.push({ column, joinColumn, value });
  });
  return draft;
}

/** An NDJSON value to a body: its keys checked by name first. */
function draftOfObject(plan: ColumnPlan, line: number, object: unknown): Draft {
  const draft: Draft = { body: {}, relations: [], errors: [] };
  if (!isPlainObject(object)) {
    draft.errors.push({ line, column: null, code: 'MALFORMED_ROW', message: 'Line is not a JSON object' });
    return draft;
  }
  for (const [key, value] of Object.entries(object)) {
    if (IGNORED_COLUMNS.includes(key) || plan.serviceOwned.has(key)) continue;
    if (key === 'createdAt') readCreatedAt(draft, line, key, value);
    else if (plan.unwritable.has(key))
      draft.errors.push({ line, column: key, code: 'INVALID_VALUE', message: `Field '${key}' is not writable` });
    else draft.body[key] = value;
  }
  return draft;
}

/**
 * Reads one raw row into the record it stands for, checked: `record` is set when `errors` is empty.
 * A malformed raw row is one MALFORMED_ROW error; each validation message is a REQUIRED error (a
 * missing required field) or an INVALID_VALUE one, attributed to the column it names.
 */
export function convertRow(meta: CollectionMeta, plan: ColumnPlan, raw: RawRow, options: ConvertOptions): ImportRow {
  const { line } = raw;
  if ('malformed' in raw)
    return { line, relations: [], errors: [{ line, column: null, code: 'MALFORMED_ROW', message: raw.malformed }] };
  const draft =
    'cells' in raw ? draftOfCells(plan, line, raw.cells, options.blank) : draftOfObject(plan, line, raw.object);
  const row: ImportRow = { line, relations: draft.relations, errors: draft.errors };
  if (draft.createdAt !== undefined) row.createdAt = draft.createdAt;
  // unwritable keys and malformed lines first: their values are not looked at
  if (draft.errors.some((e) => e.code === 'MALFORMED_ROW' || /is not writable$/.test(e.message))) return row;
  const dto = options.operation === 'create' ? meta.def.create : meta.def.update;
  const result = validateRecord(dto, draft.body, true, options.maxBodyDepth);
  if (!result.ok) {
    for (const message of result.messages) {
      const code = / is required$/.test(message) ? 'REQUIRED' : 'INVALID_VALUE';
      row.errors.push({ line, column: columnOfMessage(message), code, message });
    }
  }
  if (row.errors.length === 0 && result.ok) row.record = result.value;
  return row;
}
