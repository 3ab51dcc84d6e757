import { PartialType } from '@nestjs/swagger';
import { DateTimeField, JoinColumnField, TextField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Message: the create body (every writable field, declared once). */
export class Message {
  @TextField({ description: 'RFC822 Message-ID' })
  headerMessageId?: string;

  @TextField()
  subject?: string;

  @TextField()
  text?: string;

  @DateTimeField({ nullable: true })
  receivedAt?: string | null;

  @JoinColumnField({
    name: 'messageThread',
    target: 'messageThreads',
    inverse: 'messages',
    onDelete: 'CASCADE',
    nullable: true,
  })
  messageThreadId?: string | null;
}

/** Message update body: every field optional (PATCH). */
export class MessageForUpdate extends PartialType(Message, { skipNullProperties: false }) {}

/** Message as returned: common fields, readable fields and relations. */
export class MessageForResponse extends RecordResponse(Message) {}
