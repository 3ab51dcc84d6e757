import { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import type { CollectionCatalog } from '../model/collection-catalog';
import { apiPropertyFor, DeclaredField } from '../fields/define-field';
import { getFieldDefinitions } from '../fields/field-definition';

/**
 * Base of a collection's `<Object>ForResponse` schema: the common fields and every readable
 * field of the create class (write-only fields left out). Relation fields are added by
 * `documentRelations` once every collection is known.
 */
export function RecordResponse(create: Type<object>): Type<object> {
  class RecordResponseBase {}
  const proto = RecordResponseBase.prototype;
  ApiProperty({ type: 'string', format: 'uuid', required: true })(proto, 'id');
  for (const field of getFieldDefinitions(create) as DeclaredField[]) {
    if (field.writeOnly) continue;
    const { default: _default, writeOnly: _writeOnly, ...options } = apiPropertyFor(field) as Record<string, unknown>;
    // a required join column whose target's deletion clears it (SET_NULL) can read back as null
    const nullable = options.nullable === true || field.relation?.onDelete === 'SET_NULL' || undefined;
    ApiProperty({ ...options, nullable, required: false })(proto, field.name);
  }
  ApiProperty({ type: 'string', format: 'date-time', required: false })(proto, 'createdAt');
  ApiProperty({ type: 'string', format: 'date-time', required: false })(proto, 'updatedAt');
  ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    required: false,
    description: 'Set when soft-deleted',
  })(proto, 'deletedAt');
  return RecordResponseBase;
}

/** Adds the relation fields (read-only, present from depth 1) to every `<Object>ForResponse`. */
export function documentRelations(catalog: CollectionCatalog): void {
  for (const meta of catalog.all()) {
    const proto = meta.def.response.prototype;
    for (const rel of meta.manyToOne) {
      const target = catalog.require(rel.target).def.response;
      ApiProperty({
        type: () => target,
        nullable: true,
        required: false,
        readOnly: true,
        description: `The related ${rel.name} (depth >= 1), null when ${rel.joinColumn} is null`,
      })(proto, rel.name);
    }
    for (const rel of meta.oneToMany) {
      const target = catalog.require(rel.target).def.response;
      ApiProperty({
        type: () => [target],
        required: false,
        readOnly: true,
        description: `Related ${rel.target} (depth >= 1), at most 60`,
      })(proto, rel.name);
    }
  }
}
