import { PartialType } from '@nestjs/swagger';
import { RecordResponse } from '../../core/openapi/record-response';

/** MessageThread: the create body. A thread has no fields of its own: messages point at it. */
export class MessageThread {}

/** MessageThread update body: every field optional (PATCH). */
export class MessageThreadForUpdate extends PartialType(MessageThread, { skipNullProperties: false }) {}

/** MessageThread as returned: common fields and relations. */
export class MessageThreadForResponse extends RecordResponse(MessageThread) {}
