import { QueryError } from '../errors/query-error';

/** The query string as the HTTP adapter parsed it. */
export type RawQuery = Record<string, unknown>;

/** Checks names and single string values of the query parameters of one route. */
export function readParams<P extends readonly string[]>(raw: RawQuery, allowed: P): { [K in P[number]]?: string } {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw ?? {})) {
    if (!allowed.includes(name)) {
      throw new QueryError(
        allowed.length
          ? `Unknown query parameter '${name}'; this route accepts ${allowed.join(', ')}`
          : `Unknown query parameter '${name}'; this route accepts none`,
      );
    }
    if (typeof value !== 'string') throw new QueryError(`Query parameter '${name}' must be given once, as a string`);
    params[name] = value;
  }
  return params as { [K in P[number]]?: string };
}
