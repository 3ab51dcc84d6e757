import { DEFAULT_NOW, isComposite } from '../fields/field-definition';
import { isPlainObject } from '../fields/field-rules';
import { StorageColumn } from '../fields/storage-columns';
import { SecretBox } from '../security/secret-box';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';

const PG_UTC_TIMESTAMP = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/;

/**
 * ISO 8601 UTC with milliseconds from a timestamptz as PostgreSQL prints it in a UTC session
 * ('2026-11-21 10:04:05.123456+00'); the raw text keeps microseconds for cursors.
 */
export function toIsoTimestamp(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  const text = String(value);
  const m = PG_UTC_TIMESTAMP.exec(text);
  if (m) return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  return new Date(text).toISOString();
}
const iso = toIsoTimestamp;

/**
 * Converts between API records and table rows for one collection: composite objects to and
 * from their sub-field columns, timestamps to ISO 8601 with milliseconds, secrets encrypted at
 * rest, write-only fields never read back. Defaults are applied here, from the declarations.
 */
export class RecordCodec {
  constructor(
    private readonly meta: CollectionMeta,
    private readonly secrets: SecretBox,
  ) {}

  private decode(col: StorageColumn, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    if (col.type === 'DATE_TIME') return iso(value);
    if (col.type === 'NUMERIC') return Number(value);
    if (col.field.encrypted) return this.secrets.decrypt(value as string);
    return value;
  }

  /** The record at depth 0 (no relation fields). */
  toRecord(row: Row): ApiRecord {
    const record: ApiRecord = { id: row.id };
    for (const field of this.meta.fields) {
      if (field.writeOnly) continue;
      const cols = this.meta.columnsByField.get(field.name)!;
      if (!isComposite(field.type)) {
        record[field.name] = this.decode(cols[0], row[cols[0].column]);
        continue;
      }
      const value: Record<string, unknown> = {};
      let allNull = true;
      for (const col of cols) {
        const v = this.decode(col, row[col.column]);
        if (v !== null) allNull = false;
        value[col.sub!.name] = v;
      }
      record[field.name] = field.nullable && allNull ? null : value;
    }
    record.createdAt = iso(row.createdAt);
    record.updatedAt = iso(row.updatedAt);
    record.deletedAt = iso(row.deletedAt);
    return record;
  }

  private encode(col: StorageColumn, value: unknown): unknown {
    if (value === null || value === undefined) return null;
    if (value === DEFAULT_NOW) return new Date();
    if (col.type === 'RAW_JSON') return JSON.stringify(value);
    if (col.field.encrypted && typeof value === 'string') return this.secrets.encrypt(value);
    return value;
  }

  /**
   * Values of every writable column for an INSERT, in `meta.columns` order: given values,
   * missing composite sub-fields and missing fields at their declared defaults.
   */
  insertValues(input: Record<string, unknown>): unknown[] {
    const values: unknown[] = [];
    for (const field of this.meta.fields) {
      const given = input[field.name];
      for (const col of this.meta.columnsByField.get(field.name)!) {
        let value: unknown;
        if (given === undefined) value = col.defaultValue ?? null;
        else if (!col.sub || given === null) value = col.sub ? null : given;
        else {
          const sub = (given as Record<string, unknown>)[col.sub.name];
          value = sub === undefined ? (col.defaultValue ?? null) : sub;
        }
        values.push(this.encode(col, value));
      }
    }
    return values;
  }

  /**
   * Column assignments of a partial update: only the fields present, and inside a composite
   * only the sub-fields present (`null` clears every sub-field of a nullable composite).
   */
  updateAssignments(input: Record<string, unknown>): { columns: StorageColumn[]; values: unknown[] } {
    const columns: StorageColumn[] = [];
    const values: unknown[] = [];
    for (const field of this.meta.fields) {
      const given = input[field.name];
      if (given === undefined) continue;
      for (const col of this.meta.columnsByField.get(field.name)!) {
        if (!col.sub || given === null) {
          columns.push(col);
          values.push(this.encode(col, given));
        } else if (isPlainObject(given) && given[col.sub.name] !== undefined) {
          columns.push(col);
          values.push(this.encode(col, given[col.sub.name]));
        }
      }
    }
    return { columns, values };
  }
}
