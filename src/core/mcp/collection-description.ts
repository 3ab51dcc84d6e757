import { canRead } from '../model/readable-fields';
import { DeclaredField } from '../fields/define-field';
import type { Access } from '../model/access';
import { isComposite, isRequired } from '../fields/field-definition';
import { subFieldsOf } from '../fields/composite-fields';
import { CollectionMeta } from '../model/collection-meta';

/** One line per collection for `list_collections`: what it holds, from its declaration. */
export function collectionSummary(meta: CollectionMeta) {
  const label = meta.def.labelIdentifier ? `, labelled by ${meta.def.labelIdentifier}` : '';
  const search = meta.searchable ? ', searchable' : '';
  return {
    name: meta.plural,
    singular: meta.def.singular,
    description: `${meta.fields.length} fields, ${meta.manyToOne.length + meta.oneToMany.length} relations${label}${search}`,
  };
}

function fieldDescription(field: DeclaredField) {
  return {
    name: field.name,
    type: field.type,
    writable: true,
    required: isRequired(field),
    nullable: field.nullable === true,
    ...(field.options ? { options: [...field.options] } : {}),
    ...(isComposite(field.type)
      ? { subFields: subFieldsOf(field.type).map((s) => ({ name: s.name, type: s.type })) }
      : {}),
    ...(field.description ? { description: field.description } : {}),
  };
}

/**
 * `describe_collection`: the fields of one collection as the OpenAPI schemas describe them (from
 * the same declarations): type, options of selects, sub-fields of composites, which are
 * required on create; the server-owned fields; the relations to follow with `depth` or in paths.
 */
export function describeCollection(meta: CollectionMeta, access: Access) {
  const grant = access.grant(meta.plural);
  // what the key may read, read-only where it may not write (API.md section 14)
  const visible = (name: string) => access.admin || !grant?.hidden.has(name);
  const writable = (name: string) => access.admin || !grant?.readOnly.has(name);
  const owned = ['id', 'createdAt', 'updatedAt', 'deletedAt'].map((name) => ({
    name,
    type: name === 'id' ? 'UUID' : 'DATE_TIME',
    writable: name === 'id',
    required: false,
    nullable: name === 'deletedAt',
  }));
  return {
    name: meta.plural,
    singular: meta.def.singular,
    fields: [
      ...owned.filter((f) => visible(f.name)),
      ...meta.fields
        .filter((f) => !f.writeOnly && visible(f.name))
        .map((f) => ({ ...fieldDescription(f), writable: !f.readOnly && writable(f.name) })),
      ...meta.fields
        .filter((f) => f.writeOnly && visible(f.name))
        .map((f) => ({ ...fieldDescription(f), writable: writable(f.name), writeOnly: true })),
    ],
    relations: [...meta.manyToOne, ...meta.oneToMany]
      .filter((r) => visible(r.name) && canRead(access, r.target))
      .map((r) => ({
        name: r.name,
        target: r.target,
        kind: r.kind,
        joinColumn: r.joinColumn,
      })),
  };
}
