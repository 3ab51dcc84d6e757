import { QueryError } from '../errors/query-error';
import type { ResolvedFilter, ResolvedPredicate } from '../model/checked-filter';
import { checkPathReadable } from '../model/readable-fields';
import type { Access } from '../model/access';
import { QueryTarget } from '../model/column-ref';
import { checkOperator, convertFilterValue, escapeLike } from './filter-values';
import { FilterNode } from './parse-filter';

export type { ResolvedFilter, ResolvedPredicate };

function resolvePredicate(
  target: QueryTarget,
  node: Extract<FilterNode, { kind: 'predicate' }>,
  access: Access | undefined,
): ResolvedPredicate {
  const ref = target.resolve(node.path);
  if (access) checkPathReadable(access, target.plural, node.path, ref);
  checkOperator(ref, node.operator);
  const { operator, value } = node;
  const isList = operator === 'in' || operator === 'containsAny';
  if (isList !== (value.kind === 'list')) {
    throw new QueryError(
      isList
        ? `Operator '${operator}' on '${ref.path}' expects a list, e.g. ${ref.path}[${operator}]:[a,b]`
        : `Operator '${operator}' on '${ref.path}' expects a single value, not a list`,
    );
  }
  const predicate = (resolved: unknown): ResolvedPredicate => ({
    kind: 'predicate',
    path: node.path,
    ref,
    operator,
    value: resolved,
  });
  if (value.kind === 'list') return predicate(value.items.map((item) => convertFilterValue(ref, item)));
  if (operator === 'is') {
    const text = value.value.text;
    if (text === 'NULL' || text === 'NOT_NULL') return predicate(text);
    throw new QueryError(`Operator 'is' on '${ref.path}' expects NULL or NOT_NULL, got '${text}'`);
  }
  const converted = convertFilterValue(ref, value.value);
  if (operator === 'startsWith') return predicate(`${escapeLike(converted as string)}%`);
  if (operator === 'endsWith') return predicate(`%${escapeLike(converted as string)}`);
  return predicate(converted);
}

/**
 * Checks a parsed filter against a collection (QueryError, a 400, on the first problem, left to
 * right) and, given the key's access, against what the key may read (API.md section 14). Without
 * access (a role's own row filter), only against the collection.
 */
export function resolveFilter(target: QueryTarget, node: FilterNode, access?: Access): ResolvedFilter {
  switch (node.kind) {
    case 'and':
    case 'or':
      return { kind: node.kind, children: node.children.map((c) => resolveFilter(target, c, access)) };
    case 'not':
      return { kind: 'not', child: resolveFilter(target, node.child, access) };
    case 'predicate':
      return resolvePredicate(target, node, access);
  }
}

/** The tables a filter reads through relation paths (`company.employees` reads `company`), each once. */
export function filterRelationTables(filter: ResolvedFilter | undefined): string[] {
  const tables = new Set<string>();
  const visit = (n: ResolvedFilter): void => {
    if (n.kind === 'predicate') n.ref.hops?.forEach((hop) => tables.add(hop.table));
    else if (n.kind === 'not') visit(n.child);
    else n.children.forEach(visit);
  };
  if (filter) visit(filter);
  return [...tables];
}

/** True when the filter names `field` (a field of the collection itself) anywhere. */
export function filterMentions(filter: ResolvedFilter | undefined, field: string): boolean {
  if (!filter) return false;
  if (filter.kind === 'predicate') return filter.path[0] === field;
  if (filter.kind === 'not') return filterMentions(filter.child, field);
  return filter.children.some((c) => filterMentions(c, field));
}
