import { Module } from '@nestjs/common';
import { UploadReceiver } from '../../core/rest/file-uploads';
import { AttachmentFiles } from './attachment-files';
import { AttachmentUploads } from './attachment-uploads';
import { AttachmentsController } from './attachments.controller';
import { FileCleaner } from './file-cleaner';
import { FileDeletionOutboxSubscriber } from './file-deletion-outbox.subscriber';

/**
 * Attachments: the collection, its files (multipart upload, download, signed links: API.md
 * section 16) and their lifecycle (the outbox of files to remove after a hard delete, the sweep).
 */
@Module({
  controllers: [AttachmentsController],
  providers: [
    { provide: UploadReceiver, useClass: AttachmentUploads },
    AttachmentFiles,
    FileDeletionOutboxSubscriber,
    FileCleaner,
  ],
})
export class AttachmentsModule {}
