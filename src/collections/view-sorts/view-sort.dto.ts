import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, TextField, UuidField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** ViewSort: the create body (every writable field, declared once). */
export class ViewSort {
  @UuidField()
  fieldMetadataId!: string;

  @TextField({ description: '"asc" | "desc"', default: 'asc' })
  direction?: string;

  @JoinColumnField({ name: 'view', target: 'views', inverse: 'viewSorts', onDelete: 'CASCADE', nullable: true })
  viewId?: string | null;
}

/** ViewSort update body: every field optional (PATCH). */
export class ViewSortForUpdate extends PartialType(ViewSort, { skipNullProperties: false }) {}

/** ViewSort as returned: common fields, readable fields and relations. */
export class ViewSortForResponse extends RecordResponse(ViewSort) {}
