import { PartialType } from '@nestjs/swagger';
import { JoinColumnField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** NoteTarget: the create body (every writable field, declared once). */
export class NoteTarget {
  @JoinColumnField({ name: 'note', target: 'notes', inverse: 'noteTargets', onDelete: 'SET_NULL', nullable: true })
  noteId?: string | null;

  @JoinColumnField({ name: 'person', target: 'people', inverse: 'noteTargets', onDelete: 'CASCADE', nullable: true })
  personId?: string | null;

  @JoinColumnField({
    name: 'company',
    target: 'companies',
    inverse: 'noteTargets',
    onDelete: 'CASCADE',
    nullable: true,
  })
  companyId?: string | null;

  @JoinColumnField({
    name: 'opportunity',
    target: 'opportunities',
    inverse: 'noteTargets',
    onDelete: 'CASCADE',
    nullable: true,
  })
  opportunityId?: string | null;
}

/** NoteTarget update body: every field optional (PATCH). */
export class NoteTargetForUpdate extends PartialType(NoteTarget, { skipNullProperties: false }) {}

/** NoteTarget as returned: common fields, readable fields and relations. */
export class NoteTargetForResponse extends RecordResponse(NoteTarget) {}
