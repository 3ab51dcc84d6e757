import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** MessageFolder: the create body (every writable field, declared once). */
export class MessageFolder {
  @TextField({ description: 'Folder name' })
  name?: string;

  @TextField()
  syncCursor?: string;

  @JoinColumnField({
    name: 'messageChannel',
    target: 'messageChannels',
    inverse: 'messageFolders',
    onDelete: 'CASCADE',
  })
  messageChannelId!: string;
}

/** MessageFolder update body: every field optional (PATCH). */
export class MessageFolderForUpdate extends PartialType(MessageFolder, { skipNullProperties: false }) {}

/** MessageFolder as returned: common fields, readable fields and relations. */
export class MessageFolderForResponse extends RecordResponse(MessageFolder) {}
