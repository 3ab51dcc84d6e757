import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, NumberField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** ViewFilter: the create body (every writable field, declared once). */
export class ViewFilter {
  @UuidField()
  fieldMetadataId!: string;

  @TextField({
    description:
      'TEXT operand name (e.g. Contains, Is, IsNot, GreaterThan, LessThan, IsEmpty, IsNotEmpty, IsBefore, IsAfter, IsRelative, IsInPast, IsInFuture, IsToday, DoesNotContain)',
    default: 'Contains',
  })
  operand?: string;

  @TextField()
  value?: string;

  @TextField()
  displayValue?: string;

  @JoinColumnField({ name: 'view', target: 'views', inverse: 'viewFilters', onDelete: 'CASCADE', nullable: true })
  viewId?: string | null;

  @UuidField({ description: 'Plain UUID (not a declared relation) referencing viewFilterGroups.id', nullable: true })
  viewFilterGroupId?: string | null;

  @NumberField({ nullable: true })
  positionInViewFilterGroup?: number | null;
}

/** ViewFilter update body: every field optional (PATCH). */
export class ViewFilterForUpdate extends PartialType(ViewFilter, { skipNullProperties: false }) {}

/** ViewFilter as returned: common fields, readable fields and relations. */
export class ViewFilterForResponse extends RecordResponse(ViewFilter) {}
