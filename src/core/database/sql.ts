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
