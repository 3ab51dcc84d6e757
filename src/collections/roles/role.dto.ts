import { PartialType } from '@nestjs/swagger';
import { BooleanField, RawJsonField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

const GRANT = {
  type: 'object',
  required: ['collection', 'actions'],
  properties: {
    collection: {
      type: 'string',
      description: 'Plural name of a collection, or * for every collection without a grant of its own',
    },
    actions: { type: 'array', items: { type: 'string', enum: ['read', 'create', 'update', 'delete'] } },
    hiddenFields: {
      type: 'array',
      items: { type: 'string' },
      description: 'Fields the key can neither read nor write',
    },
    readOnlyFields: { type: 'array', items: { type: 'string' }, description: 'Fields the key can read but not write' },
    filter: {
      type: 'string',
      description: 'Row filter (grammar of list filters, own fields only): the rows the key sees and changes',
    },
  },
};

/** Role: what the API keys that point at it may do (API.md section 14). */
export class Role {
  @TextField({ required: true, unique: true, description: 'Unique name of the role' })
  name!: string;

  @TextField({ nullable: true })
  description?: string | null;

  @BooleanField({ default: false, description: 'An admin role may do everything' })
  admin?: boolean;

  @RawJsonField({
    default: [],
    description:
      'Grants: [{"collection":"people","actions":["read"],"hiddenFields":["phones"],"readOnlyFields":[],"filter":"city[eq]:Paris"}]',
    api: { type: 'array', items: GRANT },
  })
  permissions?: unknown;
}

/** Role update body: every field optional (PATCH). */
export class RoleForUpdate extends PartialType(Role, { skipNullProperties: false }) {}

/** Role as returned: common fields, readable fields and relations. */
export class RoleForResponse extends RecordResponse(Role) {}
