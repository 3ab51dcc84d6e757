import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { Attachment, AttachmentForResponse, AttachmentForUpdate } from './attachment.dto';

@RecordEntity({ table: 'attachment', fields: Attachment })
export class AttachmentEntity {}

export const attachments = defineCollection({
  plural: 'attachments',
  description: 'Attachments: files attached to people, companies, opportunities, notes and tasks',
  singular: 'attachment',
  pascal: 'Attachment',
  pascalPlural: 'Attachments',
  entity: AttachmentEntity,
  create: Attachment,
  update: AttachmentForUpdate,
  response: AttachmentForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: false,
  files: true,
});
