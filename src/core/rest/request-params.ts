import { QueryError } from '../query/query-error';
import { Depth, parseDepth, parseFields } from '../query/parse-params';
import { CollectionMeta, COMMON_FIELDS } from '../model/collection-meta';
import { ApiRecord } from '../repository/record-codec';

/** Query parameters each route accepts; anything else is a 400. */
export const ROUTE_PARAMS = {
  findMany: ['filter', 'order_by', 'limit', 'starting_after', 'ending_before', 'depth', 'fields'],
  findOne: ['depth', 'fields'],
  write: ['depth'],
  delete: ['soft_delete'],
  duplicates: ['depth'],
} as const;

export type RawQuery = Record<string, unknown>;

/** Checks names and single string values of the query parameters of one route. */
export function readParams(raw: RawQuery, allowed: readonly string[]): Record<string, string | undefined> {
  const params: Record<string, string | undefined> = {};
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
  return params;
}

/** depth and fields as a route uses them to shape records. */
export interface Shape {
  depth: Depth;
  /** Top-level names to keep (id always included), or undefined for every field. */
  fields?: string[];
}

export function parseShape(meta: CollectionMeta, params: Record<string, string | undefined>): Shape {
  const depth = parseDepth(params.depth);
  const fields = parseFields(params.fields);
  if (fields) {
    const known = new Set<string>([
      ...COMMON_FIELDS,
      ...meta.fields.filter((f) => !f.writeOnly).map((f) => f.name),
      ...meta.manyToOne.map((r) => r.name),
      ...meta.oneToMany.map((r) => r.name),
    ]);
    const unknown = fields.find((f) => !known.has(f));
    if (unknown) throw new QueryError(`field '${unknown}' does not exist in '${meta.def.singular}' object`);
  }
  return { depth, fields };
}

/** Keeps only the requested fields of records (after relations were attached). */
export function project(records: ApiRecord[], fields: string[] | undefined): ApiRecord[] {
  if (!fields) return records;
  return records.map((record) => {
    const kept: ApiRecord = {};
    for (const name of fields) if (name in record) kept[name] = record[name];
    return kept;
  });
}
