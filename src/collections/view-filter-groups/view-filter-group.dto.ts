import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, NumberField, SelectField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

export const VIEW_FILTER_GROUP_LOGICAL_OPERATOR_OPTIONS = ['AND', 'OR', 'NOT'] as const;

/** ViewFilterGroup: the create body (every writable field, declared once). */
export class ViewFilterGroup {
  @JoinColumnField({ name: 'view', target: 'views', inverse: 'viewFilterGroups', onDelete: 'CASCADE' })
  viewId!: string;

  @UuidField({ description: 'Plain UUID, self reference to parent group', nullable: true })
  parentViewFilterGroupId?: string | null;

  @SelectField(VIEW_FILTER_GROUP_LOGICAL_OPERATOR_OPTIONS, { default: 'NOT' })
  logicalOperator?: string;

  @NumberField({ nullable: true })
  positionInViewFilterGroup?: number | null;
}

/** ViewFilterGroup update body: every field optional (PATCH). */
export class ViewFilterGroupForUpdate extends PartialType(ViewFilterGroup, { skipNullProperties: false }) {}

/** ViewFilterGroup as returned: common fields, readable fields and relations. */
export class ViewFilterGroupForResponse extends RecordResponse(ViewFilterGroup) {}
