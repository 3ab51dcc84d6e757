import { FieldDefinition, isComposite, isRequired } from './field-definition';

/**
 * The value rules of every field type, as pure functions.
 * `checkFieldValue` returns `null` when the value is acceptable, otherwise a message template
 * in which `{path}` stands for the dotted path of the field (filled in by the error formatter).
 * The class-validator constraint of each field decorator calls this function, so the declared
 * decorators stay the single source of the rules.
 */

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// ISO 8601 calendar date, optionally with a time and a zone: 2026-11-21, 2026-11-21T10:04:05.123Z
const DATE_TIME_RE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID_RE.test(value);
}

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(2000, month, 0)).getUTCDate(); // days of that month in a leap year
  if (day > days) return false;
  if (month === 2 && day === 29) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return true;
}

/** True for an ISO 8601 date-time (or date) PostgreSQL's timestamptz stores as written. */
export function isIsoDateTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_TIME_RE.exec(value);
  if (!m) return false;
  if (!validDate(Number(m[1]), Number(m[2]), Number(m[3]))) return false;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return false;
  return true;
}

export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE_RE.exec(value);
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** PostgreSQL text and jsonb cannot hold U+0000. */
export function containsNul(value: string): boolean {
  return value.includes('\u0000');
}

/** True when any string (key or value) inside a JSON value holds U+0000. */
export function jsonContainsNul(value: unknown): boolean {
  if (typeof value === 'string') return containsNul(value);
  if (Array.isArray(value)) return value.some(jsonContainsNul);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => containsNul(k) || jsonContainsNul(v));
  }
  return false;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Short printable form of a rejected value for error messages. */
export function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Shapes a RAW_JSON value may be required to have. */
export type JsonShape = 'any' | 'object' | 'stringArray' | { arrayOf: Record<string, 'string'> };

function checkJsonShape(shape: JsonShape, value: unknown): string | null {
  if (shape === 'any') return null;
  if (shape === 'object') return isPlainObject(value) ? null : '{path} must be an object';
  if (!Array.isArray(value)) return '{path} must be an array';
  if (shape === 'stringArray') {
    return value.every((v) => typeof v === 'string') ? null : '{path} must be an array of strings';
  }
  const keys = Object.keys(shape.arrayOf);
  const ok = value.every(
    (item) =>
      isPlainObject(item) &&
      Object.keys(item).every((k) => keys.includes(k)) &&
      Object.values(item).every((v) => v === null || v === undefined || typeof v === 'string'),
  );
  return ok ? null : `{path} must be an array of objects with string properties ${keys.join(', ')}`;
}

/** Extra rules a field definition can carry beyond its type. */
export interface FieldRuleOptions {
  jsonShape?: JsonShape;
}

/** Checks one value against its field definition. `undefined` means the property is absent. */
export function checkFieldValue(field: FieldDefinition & FieldRuleOptions, value: unknown): string | null {
  if (value === undefined) return isRequired(field) ? '{path} is required' : null;
  if (field.readOnly) return '{path} is read-only';
  if (value === null) return field.nullable ? null : '{path} must not be null';
  if (isComposite(field.type)) return isPlainObject(value) ? null : '{path} must be an object';
  switch (field.type) {
    case 'TEXT':
    case 'RICH_TEXT':
      if (typeof value !== 'string') return '{path} must be a string';
      if (containsNul(value)) return '{path} must not contain NUL characters';
      // the contract's one message for a refused target, whether its scheme or its address is wrong
      if (field.httpUrl && !isHttpUrl(value)) return '{path} must be a public http(s) URL';
      return null;
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION':
      return typeof value === 'number' && Number.isFinite(value) ? null : '{path} must be a finite number';
    case 'BOOLEAN':
      return typeof value === 'boolean' ? null : '{path} must be a boolean';
    case 'DATE_TIME':
      return isIsoDateTime(value) ? null : '{path} must be an ISO 8601 date-time, e.g. 2026-11-21T10:04:05.123Z';
    case 'DATE':
      return isIsoDate(value) ? null : '{path} must be an ISO 8601 date, e.g. 2026-11-21';
    case 'UUID':
      return isUuid(value) ? null : `'${show(value)}' is not a valid UUID ({path})`;
    case 'RAW_JSON':
      if (jsonContainsNul(value)) return '{path} must not contain NUL characters';
      return checkJsonShape(field.jsonShape ?? 'any', value);
    case 'ARRAY':
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
        return '{path} must be an array of strings';
      }
      return value.some(containsNul) ? '{path} must not contain NUL characters' : null;
    case 'SELECT':
    case 'RATING':
      return typeof value === 'string' && field.options!.includes(value)
        ? null
        : `Invalid value '${show(value)}' for field "{path}"`;
    case 'MULTI_SELECT': {
      if (!Array.isArray(value)) return '{path} must be an array';
      const bad = value.find((v) => typeof v !== 'string' || !field.options!.includes(v));
      return bad === undefined ? null : `Invalid value '${show(bad)}' for field "{path}"`;
    }
  }
  return null;
}
