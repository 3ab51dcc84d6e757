import { ApiProperty, PartialType } from '@nestjs/swagger';
import { DateTimeField, JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** ApiKey: the create body (every writable field, declared once). */
export class ApiKey {
  @TextField({ description: 'What the key is for' })
  name?: string;

  @DateTimeField({ description: 'Required; no default' })
  expiresAt!: string;

  @DateTimeField({ nullable: true, description: 'Set to revoke the key (effective within seconds on every instance)' })
  revokedAt?: string | null;

  @JoinColumnField({
    name: 'role',
    target: 'roles',
    inverse: 'apiKeys',
    // a role in use cannot be hard-deleted (400 naming how many keys use it)
    onDelete: 'RESTRICT',
    nullable: true,
    description: 'What the key may do (API.md section 14); null: everything, as an admin',
  })
  roleId?: string | null;
}

/** ApiKey update body: every field optional (PATCH). */
export class ApiKeyForUpdate extends PartialType(ApiKey, { skipNullProperties: false }) {}

/** ApiKey as returned: common fields, readable fields and relations. */
export class ApiKeyForResponse extends RecordResponse(ApiKey) {
  @ApiProperty({
    type: 'string',
    required: false,
    readOnly: true,
    description: 'The bearer token, returned once in the create response; only its hash is stored',
  })
  token?: string;
}
