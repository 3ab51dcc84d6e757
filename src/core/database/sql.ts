import { QueryError } from '../errors/query-error';

/** Quotes an identifier that comes from metadata (never from a request): the one quoting function. */
export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** PostgreSQL accepts at most 65535 bound parameters per statement. */
export const MAX_PARAMS = 60_000;

/** `($1, $2), ($3, $4)`: rows of values as bound parameters, numbered after `values` already bound. */
export function valuesList(rows: unknown[][], values: unknown[]): string {
  return rows.map((row) => `(${row.map((v) => (values.push(v), `$${values.length}`)).join(', ')})`).join(', ');
}

/**
 * A string literal of a text that comes from metadata (never from a request: those are bound): a
 * field or event name written into a statement. The one literal-quoting function.
 */
export function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** `ARRAY['a', 'b']::text[]` of names from metadata. */
export function namesArray(names: readonly string[]): string {
  return `ARRAY[${names.map(literal).join(', ')}]::text[]`;
}

/** A bound value as the text the driver would send for it (arrays as array literals). */
function valueText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    const items = value.map((v) => (v === null ? 'NULL' : `"${valueText(v).replace(/[\\"]/g, '\\$&')}"`));
    return `{${items.join(',')}}`;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Rows of values as ONE bound JSON array of arrays of their texts (`null` for none): `rowsSql`
 * turns it back into the rows, each value cast from its text to its column's type as PostgreSQL
 * casts a bound parameter. Where `valuesList` binds a parameter per value (a statement text that
 * grows with the rows, parsed each time, and at most MAX_PARAMS values), this text is the same
 * whatever the rows' number: prepared once, and PostgreSQL parses the values as one JSON value.
 */
export function jsonRows(rows: unknown[][]): string {
  return JSON.stringify(rows.map((row) => row.map((v) => (v === null || v === undefined ? null : valueText(v)))));
}

/** The rows of a `jsonRows` parameter `param`, their values cast to `types` (one per column). */
export function rowsSql(param: string, types: string[]): string {
  return `SELECT ${types.map((type, i) => `(j.v ->> ${i})::${type}`).join(', ')} FROM jsonb_array_elements(${param}::jsonb) AS j(v)`;
}

/**
 * A statement with its bound values written in as literals, for the one statement that takes no
 * parameters (`COPY (...) TO STDOUT`): each `$n` becomes an escaped string constant (`E'...'`),
 * which PostgreSQL types from its context as it types an untyped parameter. A value holding a NUL
 * character (which no text value can hold) is refused.
 */
export function inlineValues(text: string, values: unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, n: string) => {
    const value = values[Number(n) - 1];
    if (value === null || value === undefined) return 'NULL';
    const raw = valueText(value);
    if (raw.includes('\u0000')) throw new QueryError('A value holds a NUL character');
    return `E'${raw.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
  });
}
