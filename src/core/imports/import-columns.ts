import { FieldDefinition, isComposite } from '../fields/field-definition';
import type { Access } from '../model/access';
import type { CollectionCatalog } from '../model/collection-catalog';
import type { CollectionMeta, RelationMeta } from '../model/collection-meta';
import { uniqueKeys } from '../records/upsert-plan';
import { badRequest } from '../validation/record-body';
import type { RelationColumn } from './import-types';

/**
 * What each column of an import's CSV header means (API.md section 17), checked once before any
 * row is read. The header names exactly what the CSV export writes, and a little more:
 *
 *   id                      -> the record's id
 *   <field>                 -> a top-level field that is not composite (join columns `companyId`
 *                              included; write-only fields too: the export omits them, a file may set them)
 *   <field>.<sub>           -> a composite sub-field (`name.firstName`)
 *   createdAt               -> the record's age, parsed, kept beside the record
 *   updatedAt, deletedAt    -> server-owned: read and ignored (so is a field the service sets, e.g.
 *                              attachments' `size`), so that an export imports as it is
 *   <relation>.<unique path> -> a MANY_TO_ONE relation set by a unique field of its target
 *                              (`company.domainName.primaryLinkUrl`); the writer resolves it
 *
 * Anything else is a 400 naming every bad column at once: unknown, composite named whole,
 * repeated, a relation path that is not a unique field of the target, a field the key may not
 * write (`Field '<name>' is not writable`: hidden or read-only in its grant, for the join column of
 * a relation column too), or a relation column whose target the key may not read.
 */

/** One header column and what it stands for. */
export type PlannedColumn =
  | { kind: 'id'; header: string }
  | { kind: 'field'; header: string; field: FieldDefinition }
  | { kind: 'sub'; header: string; field: FieldDefinition; sub: FieldDefinition }
  | { kind: 'createdAt'; header: string }
  | { kind: 'ignored'; header: string }
  | { kind: 'relation'; header: string; relation: RelationColumn };

/** What converting a row needs: each header column (by index) and the relation columns. */
export interface ColumnPlan {
  /** One per header column, in header order (empty for NDJSON). */
  columns: PlannedColumn[];
  relations: RelationColumn[];
  /** Top-level fields the key may not write (hidden or read-only in its grant): for NDJSON keys. */
  unwritable: ReadonlySet<string>;
  /** Fields the service sets (FieldDefinition.readOnly): ignored like `updatedAt`. */
  serviceOwned: ReadonlySet<string>;
}

/** Columns read and ignored: the server owns them. */
export const IGNORED_COLUMNS: readonly string[] = ['updatedAt', 'deletedAt'];

function unwritableFields(meta: CollectionMeta, access: Access): ReadonlySet<string> {
  const grant = access.admin ? undefined : access.grant(meta.plural);
  return new Set([...(grant?.hidden ?? []), ...(grant?.readOnly ?? [])]);
}

/** The plan for NDJSON rows: no columns, only what the key may not write. */
export function planObjectRows(meta: CollectionMeta, access: Access): ColumnPlan {
  const serviceOwned = new Set(meta.fields.filter((f) => f.readOnly).map((f) => f.name));
  return { columns: [], relations: [], unwritable: unwritableFields(meta, access), serviceOwned };
}

/** A `<relation>.<unique path>` column, or the message that refuses it. */
function relationColumn(
  header: string,
  relation: RelationMeta,
  path: string,
  catalog: CollectionCatalog,
  access: Access,
): RelationColumn | string {
  const target = relation.targetMeta ?? catalog.require(relation.target);
  if (path === 'id') return `Column '${header}': use the join column '${relation.joinColumn}'`;
  const key = uniqueKeys(target).find((k) => k.path === path);
  if (!key) return `Column '${header}': '${path}' is not a unique field of '${target.def.singular}'`;
  const grant = access.admin ? undefined : access.grant(target.plural);
  if (!access.admin && (!grant?.actions.has('read') || grant.hidden.has(path.split('.')[0])))
    return `Column '${header}': API key '${access.keyName}' may not read ${target.plural}`;
  return {
    column: header,
    relation: relation.name,
    joinColumn: relation.joinColumn,
    target: target.plural,
    targetTable: target.table,
    targetColumn: key.column,
    targetPath: key.path,
  };
}

/** What one header column means, or the message that refuses it. */
function planColumn(
  meta: CollectionMeta,
  catalog: CollectionCatalog,
  header: string,
  access: Access,
  unwritable: ReadonlySet<string>,
): PlannedColumn | string {
  if (header === 'id') return { kind: 'id', header };
  if (header === 'createdAt') return { kind: 'createdAt', header };
  if (IGNORED_COLUMNS.includes(header)) return { kind: 'ignored', header };
  const [name, ...rest] = header.split('.');
  const field = meta.fieldByName.get(name);
  const notWritable = `Field '${name}' is not writable`;
  if (field && rest.length === 0) {
    if (isComposite(field.type)) {
      const first = meta.columnsByField.get(name)![0].sub!.name;
      return `Column '${header}' is a composite field: name its sub-fields, e.g. ${name}.${first}`;
    }
    if (field.readOnly) return { kind: 'ignored', header };
    return unwritable.has(name) ? notWritable : { kind: 'field', header, field };
  }
  if (field && rest.length === 1 && isComposite(field.type)) {
    const sub = meta.columnsByField.get(name)!.find((c) => c.sub!.name === rest[0])?.sub;
    if (sub) return unwritable.has(name) ? notWritable : { kind: 'sub', header, field, sub };
  }
  const relation = meta.manyToOne.find((r) => r.name === name);
  if (relation && rest.length > 0) {
    if (unwritable.has(relation.joinColumn)) return `Field '${relation.joinColumn}' is not writable`;
    const planned = relationColumn(header, relation, rest.join('.'), catalog, access);
    return typeof planned === 'string' ? planned : { kind: 'relation', header, relation: planned };
  }
  return `Column '${header}' is not a field of '${meta.def.singular}'`;
}

/**
 * The plan of a CSV header for a collection and a key, or a 400 (`badRequest`) whose messages name
 * every bad column (an empty header is one too).
 */
export function planColumns(
  meta: CollectionMeta,
  catalog: CollectionCatalog,
  header: string[],
  access: Access,
): ColumnPlan {
  if (header.length === 0 || header.every((h) => h === ''))
    throw badRequest(['The CSV header names no column (the first line of the file must name the columns)']);
  const base = planObjectRows(meta, access);
  const problems: string[] = [];
  const seen = new Set<string>();
  const columns = header.map((h): PlannedColumn => {
    if (seen.has(h)) {
      const message = `Column '${h}' is repeated`;
      if (!problems.includes(message)) problems.push(message);
      return { kind: 'ignored', header: h };
    }
    seen.add(h);
    const planned = planColumn(meta, catalog, h, access, base.unwritable);
    if (typeof planned !== 'string') return planned;
    if (!problems.includes(planned)) problems.push(planned);
    return { kind: 'ignored', header: h };
  });
  if (problems.length > 0) throw badRequest(problems);
  const relations = columns.flatMap((c) => (c.kind === 'relation' ? [c.relation] : []));
  return { ...base, columns, relations };
}
