import { QueryError } from '../errors/query-error';

/**
 * Parsers of the small query parameters. Pure.
 *
 *   limit  := digits                 0..max; larger values are capped to max
 *   depth  := '0' | '1' | '2'
 *   fields := name ( ',' name )*     top-level field names; `id` is always added
 */

export function parseLimit(raw: string | undefined, defaultLimit: number, maxLimit: number): number {
  if (raw === undefined) return defaultLimit;
  if (!/^\d{1,9}$/.test(raw.trim())) throw new QueryError(`limit '${raw}' is invalid. Should be an integer`);
  return Math.min(Number(raw.trim()), maxLimit);
}

export type Depth = 0 | 1 | 2;

export function parseDepth(raw: string | undefined): Depth {
  if (raw === undefined) return 1;
  if (raw === '0' || raw === '1' || raw === '2') return Number(raw) as Depth;
  throw new QueryError(`'depth=${raw}' parameter invalid. Allowed values are 0, 1, 2`);
}

export function parseFields(raw: string | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  const names = raw.split(',').map((n) => n.trim());
  const bad = names.find((n) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  if (bad !== undefined) {
    throw new QueryError(`Invalid fields: '${bad}' is not a field name, expected e.g. fields=id,name,emails`);
  }
  return [...new Set(['id', ...names])];
}

export function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new QueryError(`'${name}=${raw}' parameter invalid. Allowed values are true, false`);
}
