import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, NumberField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Attachment: the create body (every writable field, declared once). */
export class Attachment {
  @TextField()
  name?: string;

  @TextField({ description: 'Storage path / signed url' })
  fullPath?: string;

  @TextField({ description: 'Free text file type (e.g. Image, TextDocument...) - TEXT not SELECT' })
  type?: string;

  @NumberField({
    nullable: true,
    default: null,
    readOnly: true,
    description: 'Size of the uploaded file in bytes (set by the upload)',
  })
  size?: number | null;

  @TextField({
    nullable: true,
    default: null,
    readOnly: true,
    description:
      "Media type found from the uploaded file's bytes: by magic number; else, for UTF-8 text without NUL, " +
      'text/plain; charset=utf-8 or the passive text type of its extension (text/csv, text/markdown, ' +
      'application/json...; never an active type such as text/html); else application/octet-stream',
  })
  mimeType?: string | null;

  @TextField({
    nullable: true,
    default: null,
    readOnly: true,
    description: 'SHA-256 of the uploaded file: sha256:<hex>',
  })
  checksum?: string | null;

  @JoinColumnField({ name: 'author', target: 'workspaceMembers', inverse: 'authoredAttachments', onDelete: 'SET_NULL' })
  authorId!: string;

  @JoinColumnField({ name: 'task', target: 'tasks', inverse: 'attachments', onDelete: 'SET_NULL', nullable: true })
  taskId?: string | null;

  @JoinColumnField({ name: 'note', target: 'notes', inverse: 'attachments', onDelete: 'SET_NULL', nullable: true })
  noteId?: string | null;

  @JoinColumnField({ name: 'person', target: 'people', inverse: 'attachments', onDelete: 'CASCADE', nullable: true })
  personId?: string | null;

  @JoinColumnField({
    name: 'company',
    target: 'companies',
    inverse: 'attachments',
    onDelete: 'CASCADE',
    nullable: true,
  })
  companyId?: string | null;

  @JoinColumnField({
    name: 'opportunity',
    target: 'opportunities',
    inverse: 'attachments',
    onDelete: 'CASCADE',
    nullable: true,
  })
  opportunityId?: string | null;
}

/** Attachment update body: every field optional (PATCH). */
export class AttachmentForUpdate extends PartialType(Attachment, { skipNullProperties: false }) {}

/** Attachment as returned: common fields, readable fields and relations. */
export class AttachmentForResponse extends RecordResponse(Attachment) {}
