import { QueryError } from '../errors/query-error';

/**
 * Parser of the `order_by` query parameter: string -> list of sort keys. Pure.
 *
 * Grammar:
 *   order_by  := key ( ',' key )*
 *   key       := path ( '[' direction ']' )?          default direction AscNullsFirst
 *   path      := name ( '.' name ){0,4}              relations first: company.name
 *   direction := AscNullsFirst | AscNullsLast | DescNullsFirst | DescNullsLast
 *
 * Example: name.lastName[DescNullsLast],createdAt
 */

export const SORT_DIRECTIONS = ['AscNullsFirst', 'AscNullsLast', 'DescNullsFirst', 'DescNullsLast'] as const;
export type SortDirection = (typeof SORT_DIRECTIONS)[number];

export interface SortKey {
  path: string[];
  descending: boolean;
  nullsFirst: boolean;
}

const KEY_RE = /^\s*([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*){0,4})\s*(?:\[\s*([A-Za-z]*)\s*\])?\s*$/;

export function parseOrderBy(source: string): SortKey[] {
  if (source.trim() === '')
    throw new QueryError("Invalid order_by: it is empty, expected e.g. 'createdAt[DescNullsLast]'");
  const seen = new Set<string>();
  return source.split(',').map((part, index) => {
    const match = KEY_RE.exec(part);
    if (!match) {
      throw new QueryError(
        `Invalid order_by at key ${index + 1} ('${part.trim()}'): expected field[direction], e.g. name.lastName[AscNullsLast]`,
      );
    }
    const direction = (match[2] ?? 'AscNullsFirst') as SortDirection;
    if (!SORT_DIRECTIONS.includes(direction)) {
      throw new QueryError(
        `Invalid order_by direction '${match[2]}' for '${match[1]}', expected one of ${SORT_DIRECTIONS.join(', ')}`,
      );
    }
    if (seen.has(match[1])) throw new QueryError(`Invalid order_by: '${match[1]}' is named twice`);
    seen.add(match[1]);
    return {
      path: match[1].split('.'),
      descending: direction.startsWith('Desc'),
      nullsFirst: direction.endsWith('NullsFirst'),
    };
  });
}

/** The canonical text of a sort (used to bind cursors to the sort they were made for). */
export function sortSignature(keys: SortKey[]): string {
  return keys.map((k) => `${k.path.join('.')}:${k.descending ? 'D' : 'A'}${k.nullsFirst ? 'F' : 'L'}`).join(',');
}
