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
