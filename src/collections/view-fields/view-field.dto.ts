import { PartialType } from '@nestjs/swagger';
import { BooleanField, JoinColumnField, NumberField, SelectField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const VIEW_FIELD_AGGREGATE_OPERATION_OPTIONS = [
  'AVG',
  'COUNT',
  'MAX',
  'MIN',
  'SUM',
  'COUNT_EMPTY',
  'COUNT_NOT_EMPTY',
  'COUNT_UNIQUE_VALUES',
  'PERCENTAGE_EMPTY',
  'PERCENTAGE_NOT_EMPTY',
  'COUNT_TRUE',
  'COUNT_FALSE',
] as const;

/** ViewField: the create body (every writable field, declared once). */
export class ViewField {
  @UuidField({ description: 'Field metadata id (plain UUID, not a relation)' })
  fieldMetadataId!: string;

  @BooleanField({ default: true })
  isVisible?: boolean;

  @NumberField({ default: 0 })
  size?: number;

  @NumberField({ default: 0, system: true })
  position?: number;

  @JoinColumnField({ name: 'view', target: 'views', inverse: 'viewFields', onDelete: 'CASCADE' })
  viewId!: string;

  @SelectField(VIEW_FIELD_AGGREGATE_OPERATION_OPTIONS, { nullable: true })
  aggregateOperation?: string | null;
}

/** ViewField update body: every field optional (PATCH). */
export class ViewFieldForUpdate extends PartialType(ViewField, { skipNullProperties: false }) {}

/** ViewField as returned: common fields, readable fields and relations. */
export class ViewFieldForResponse extends RecordResponse(ViewField) {}
