import { PartialType } from '@nestjs/swagger';
import { BooleanField, JoinColumnField, NumberField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** ViewGroup: the create body (every writable field, declared once). */
export class ViewGroup {
  @UuidField()
  fieldMetadataId!: string;

  @BooleanField({ default: true })
  isVisible?: boolean;

  @TextField({ description: 'Group-by value (select option value)' })
  fieldValue?: string;

  @NumberField({ default: 0, system: true })
  position?: number;

  @JoinColumnField({ name: 'view', target: 'views', inverse: 'viewGroups', onDelete: 'CASCADE', nullable: true })
  viewId?: string | null;
}

/** ViewGroup update body: every field optional (PATCH). */
export class ViewGroupForUpdate extends PartialType(ViewGroup, { skipNullProperties: false }) {}

/** ViewGroup as returned: common fields, readable fields and relations. */
export class ViewGroupForResponse extends RecordResponse(ViewGroup) {}
