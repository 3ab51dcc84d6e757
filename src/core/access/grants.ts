import { QueryError } from '../errors/query-error';
import { isPlainObject } from '../fields/field-rules';
import { Action, ACTIONS } from '../model/access';
import type { ResolvedFilter } from '../model/checked-filter';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta, COMMON_FIELDS } from '../model/collection-meta';
import { parseFilter } from '../query/parse-filter';
import { resolveFilter } from '../query/resolve-filter';

/** One grant of a role's `permissions`, as a client writes it (API.md section 14). */
export interface GrantInput {
  collection: string;
  actions: Action[];
  hiddenFields?: string[];
  readOnlyFields?: string[];
  filter?: string;
}

const KEYS = ['collection', 'actions', 'hiddenFields', 'readOnlyFields', 'filter'];

/** The top-level names a grant may hide or make read-only on a collection: its fields and the common timestamps. */
export function grantableFields(meta: CollectionMeta): Set<string> {
  return new Set([
    ...COMMON_FIELDS.filter((f) => f !== 'id'),
    ...meta.fields.filter((f) => !f.writeOnly).map((f) => f.name),
  ]);
}

/** The collections a grant may name: every collection but the admin-only ones. */
export function grantableCollections(catalog: CollectionCatalog): CollectionMeta[] {
  return catalog.all().filter((meta) => !meta.def.adminOnly);
}

/** A grant's row filter, checked against the collection's own fields (no relation paths). */
export function resolveRowFilter(meta: CollectionMeta, text: string, maxDepth?: number): ResolvedFilter {
  const filter = resolveFilter(meta, parseFilter(text, maxDepth));
  const visit = (node: ResolvedFilter): void => {
    if (node.kind === 'predicate') {
      if (node.ref.hops)
        throw new QueryError(`'${node.ref.path}' is a relation path; a grant filters on its own fields`);
    } else if (node.kind === 'not') visit(node.child);
    else node.children.forEach(visit);
  };
  visit(filter);
  return filter;
}

function stringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** The problems of one grant, each message prefixed by its place (`permissions[2]`). */
function grantProblems(catalog: CollectionCatalog, grant: unknown, at: string, seen: Set<string>): string[] {
  if (!isPlainObject(grant))
    return [`${at} must be an object {collection, actions, hiddenFields?, readOnlyFields?, filter?}`];
  const problems = Object.keys(grant)
    .filter((k) => !KEYS.includes(k))
    .map((k) => `${at}: unknown property '${k}'`);
  const { collection, actions, hiddenFields = [], readOnlyFields = [], filter } = grant;
  let targets: CollectionMeta[] = [];
  if (typeof collection !== 'string') problems.push(`${at}.collection must be a collection's plural name or *`);
  else if (seen.has(collection))
    problems.push(`${at}: a second grant for '${collection}' (at most one per collection)`);
  else if (collection === '*') targets = grantableCollections(catalog);
  else {
    const meta = catalog.get(collection);
    if (!meta) problems.push(`${at}: unknown collection '${collection}'`);
    else if (meta.def.adminOnly) problems.push(`${at}: '${collection}' is admin only; no grant opens it`);
    else targets = [meta];
  }
  if (typeof collection === 'string') seen.add(collection);
  if (!stringList(actions)) problems.push(`${at}.actions must be an array of read, create, update, delete`);
  else for (const a of actions) if (!ACTIONS.includes(a as Action)) problems.push(`${at}: unknown action '${a}'`);
  const fieldLists = { hiddenFields, readOnlyFields };
  for (const [name, list] of Object.entries(fieldLists)) {
    if (!stringList(list)) {
      problems.push(`${at}.${name} must be an array of field names`);
      continue;
    }
    if (targets.length === 0) continue;
    const known = new Set(targets.flatMap((meta) => [...grantableFields(meta)]));
    for (const field of list) if (!known.has(field)) problems.push(`${at}: unknown field '${field}' in ${name}`);
  }
  if (stringList(hiddenFields) && stringList(readOnlyFields))
    for (const field of hiddenFields.filter((f) => readOnlyFields.includes(f)))
      problems.push(`${at}: field '${field}' is both hidden and read-only`);
  if (filter !== undefined) {
    if (typeof filter !== 'string' || filter.trim() === '')
      problems.push(`${at}.filter must be a filter (e.g. city[eq]:Paris)`);
    else
      for (const meta of targets) {
        try {
          resolveRowFilter(meta, filter);
        } catch (error) {
          if (!(error instanceof QueryError)) throw error;
          problems.push(`${at}.filter (${meta.plural}): ${error.message}`);
          break;
        }
      }
  }
  return problems;
}

/** The problems of a role's `permissions`: one message per problem; none when it is a valid list of grants. */
export function permissionsProblems(catalog: CollectionCatalog, permissions: unknown): string[] {
  if (!Array.isArray(permissions)) return ['permissions must be an array of grants'];
  const seen = new Set<string>();
  return permissions.flatMap((grant, i) => grantProblems(catalog, grant, `permissions[${i}]`, seen));
}
