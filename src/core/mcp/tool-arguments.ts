import { QueryError } from '../errors/query-error';

/**
 * Reads the arguments of one tool call: each accessor checks a type and says what it expected,
 * in the words of the REST errors (a QueryError is a 400 there and a tool error here).
 */
export class ToolArguments {
  private readonly values: Record<string, unknown>;

  constructor(raw: unknown, known: readonly string[]) {
    this.values = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
    const unknown = Object.keys(this.values).filter((k) => !known.includes(k));
    if (unknown.length)
      throw new QueryError(
        `Unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; this tool takes ${known.join(', ') || 'none'}`,
      );
  }

  has(name: string): boolean {
    return this.values[name] !== undefined && this.values[name] !== null;
  }

  raw(name: string): unknown {
    return this.values[name];
  }

  string(name: string, required: true): string;
  string(name: string, required?: false): string | undefined;
  string(name: string, required = false): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) {
      if (required) throw new QueryError(`${name} is required`);
      return undefined;
    }
    if (typeof value !== 'string') throw new QueryError(`${name} must be a string`);
    return value;
  }

  /** An integer, handed to the REST parsers as the text a query string would carry. */
  integerText(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new QueryError(`${name} must be an integer`);
    return String(value);
  }

  boolean(name: string): boolean {
    const value = this.values[name];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') throw new QueryError(`${name} must be true or false`);
    return value;
  }

  /** A list of names (`fields`, `objects`), as the comma-separated text of the REST parameter. */
  namesText(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return value;
    if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
      throw new QueryError(`${name} must be an array of names`);
    return value.join(',');
  }

  /** A JSON value (group_by, aggregate, order_by of group_by) as the JSON text of the REST parameter. */
  jsonText(name: string): string | undefined {
    const value = this.values[name];
    return value === undefined || value === null
      ? undefined
      : typeof value === 'string'
        ? value
        : JSON.stringify(value);
  }
}
