import { PartialType } from '@nestjs/swagger';
import { BooleanField, PositionField, SelectField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const VIEW_KEY_OPTIONS = ['INDEX'] as const;
export const VIEW_OPEN_RECORD_IN_OPTIONS = ['SIDE_PANEL', 'RECORD_PAGE'] as const;
export const VIEW_KANBAN_AGGREGATE_OPERATION_OPTIONS = [
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

/** View: the create body (every writable field, declared once). */
export class View {
  @TextField()
  name?: string;

  @UuidField({ description: 'Target object metadata id' })
  objectMetadataId!: string;

  @TextField({ description: '"table" | "kanban" (TEXT, not SELECT)', default: 'table' })
  type?: string;

  @SelectField(VIEW_KEY_OPTIONS, { nullable: true, default: 'INDEX' })
  key?: string | null;

  @TextField()
  icon?: string;

  @TextField({ deprecated: true })
  kanbanFieldMetadataId?: string;

  @PositionField()
  position?: number;

  @BooleanField({ default: false })
  isCompact?: boolean;

  @SelectField(VIEW_OPEN_RECORD_IN_OPTIONS, { default: 'SIDE_PANEL' })
  openRecordIn?: string;

  @SelectField(VIEW_KANBAN_AGGREGATE_OPERATION_OPTIONS, { nullable: true, default: 'COUNT' })
  kanbanAggregateOperation?: string | null;

  @UuidField({ nullable: true })
  kanbanAggregateOperationFieldMetadataId?: string | null;

  @TextField({ nullable: true, default: null })
  anyFieldFilterValue?: string | null;
}

/** View update body: every field optional (PATCH). */
export class ViewForUpdate extends PartialType(View, { skipNullProperties: false }) {}

/** View as returned: common fields, readable fields and relations. */
export class ViewForResponse extends RecordResponse(View) {}
