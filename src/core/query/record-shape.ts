import { canRead } from '../model/readable-fields';
import { checkReadable, notReadable } from '../model/readable-fields';
import { QueryError } from '../errors/query-error';
import type { Access } from '../model/access';
import { CollectionMeta, COMMON_FIELDS } from '../model/collection-meta';
import { Depth, parseDepth, parseFields } from './parse-params';

/** How records are shaped in an answer: relation depth and, optionally, the fields kept. */
export interface Shape {
  depth: Depth;
  /** Top-level names to keep (id always included), or undefined for every field. */
  fields?: string[];
}

/** The default shape: depth 1, every field. */
export const DEFAULT_SHAPE: Shape = { depth: 1 };

/** `depth` and `fields` of a request, checked against the collection's fields and relations. */
export function parseShape(meta: CollectionMeta, params: { depth?: string; fields?: string }, access: Access): Shape {
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
    for (const name of fields) {
      checkReadable(access, meta.plural, name);
      const relation = [...meta.manyToOne, ...meta.oneToMany].find((r) => r.name === name);
      if (relation && !canRead(access, relation.target)) throw notReadable(name);
    }
  }
  return { depth, fields };
}
