import { PartialType } from '@nestjs/swagger';
import {
  ActorField,
  PositionField,
  RichTextField,
  RichTextV2Field,
  TextField,
  type Actor,
  type RichTextV2,
} from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Note: the create body (every writable field, declared once). */
export class Note {
  @PositionField()
  position?: number;

  @TextField()
  title?: string;

  @RichTextField({ deprecated: true, nullable: true })
  body?: string | null;

  @RichTextV2Field({ description: 'Composite {blocknote, markdown}', nullable: true, default: null })
  bodyV2?: RichTextV2 | null;

  @ActorField({
    description: 'Who created the record: set by the server from the API key unless createdBy.source is given',
  })
  createdBy?: Actor;
}

/** Note update body: every field optional (PATCH). */
export class NoteForUpdate extends PartialType(Note, { skipNullProperties: false }) {}

/** Note as returned: common fields, readable fields and relations. */
export class NoteForResponse extends RecordResponse(Note) {}
