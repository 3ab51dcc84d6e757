import { BadRequestException, Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { refuseUnwritable } from '../../core/access/field-access';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { FileStorage, objectKeyFor } from '../../core/files';
import type { Access } from '../../core/model/access';
import type { CollectionMeta } from '../../core/model/collection-meta';
import type { RequestActor } from '../../core/model/record';
import type { Shape } from '../../core/query/record-shape';
import { RecordServices } from '../../core/records/record-services';
import type { CreateResult } from '../../core/records/write-unit';
import { MultipartRequest, UploadReceiver } from '../../core/rest/file-uploads';
import { badRequest, validateRecord } from '../../core/validation/record-body';
import { receiveUpload, UploadAbortedError } from './multipart-upload';

/**
 * Multipart `POST /attachments` (API.md section 16): the file is streamed to the storage under a
 * key of the service's own (made from the new record's id, never from the client's file name),
 * then the attachment is created by the normal create path (access checks, one
 * `attachment.created` event) with `fullPath`, `size`, `mimeType` and `checksum` set by the
 * service. Whatever fails after the file was stored (a bad field, a refused write, a database
 * error) removes it: nothing remains. An `Idempotency-Key` works as on any create: the same
 * fields and the same file bytes (by checksum) again get the first answer back (the second copy
 * of the file is removed), anything else under the same key a 422.
 */
@Injectable()
export class AttachmentUploads extends UploadReceiver {
  private readonly logger = new Logger('AttachmentUploads');

  constructor(
    private readonly storage: FileStorage,
    private readonly records: RecordServices,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  async receive(
    meta: CollectionMeta,
    upload: MultipartRequest,
    shape: Shape,
    actor: RequestActor,
    idempotencyKey: string | undefined,
  ): Promise<CreateResult> {
    const id = randomUUID();
    const key = objectKeyFor(id);
    const received = await receiveUpload(upload.request, this.storage, key, this.config.files).catch((error) => {
      // answered before the client finished sending (413, 415): the rest of its body is not read
      if (!upload.request.complete && !upload.response.headersSent) upload.response.setHeader('Connection', 'close');
      if (error instanceof UploadAbortedError) this.logger.debug(error.message);
      throw error;
    });
    try {
      const fields = this.checkFields(meta, received.fields, actor.access, received.fileName);
      const { size, mimeType, checksum } = received.facts;
      const record = { ...fields, id, fullPath: key, size, mimeType, checksum };
      // what a repeated Idempotency-Key must ask again: the fields and the file, not the id drawn here
      const asked = [{ ...fields, size, mimeType, checksum }];
      const input = { records: [record], upsert: false };
      const created = await this.records.createOrUpsert(meta, `POST /${meta.plural}`, input, shape, actor, {
        idempotencyKey,
        asked,
      });
      if (created.replayed) await this.removeStored(key); // the first request's file is the record's
      return created;
    } catch (error) {
      await this.removeStored(key);
      throw error;
    }
  }

  /** Removes the file of an upload that made no record (refused, or replayed); else the sweep will. */
  private async removeStored(key: string): Promise<void> {
    await this.storage.delete(key).catch((cause: unknown) => {
      this.logger.warn(`could not remove the file of an upload that made no record ${key}: ${String(cause)}`);
    });
  }

  /**
   * The text parts, checked like the fields of a JSON create (those the key may not write refused
   * by name first); `name` defaults to the file's name.
   */
  private checkFields(
    meta: CollectionMeta,
    parts: Record<string, string>,
    access: Access,
    fileName?: string,
  ): Record<string, unknown> {
    refuseUnwritable(access, meta.plural, parts, false);
    if (Object.hasOwn(parts, 'fullPath')) throw badRequest(['fullPath is set by the service on a file upload']);
    if (Object.hasOwn(parts, 'id')) throw badRequest(['id is set by the service on a file upload']);
    const body: Record<string, unknown> = { ...parts };
    if (body.name === undefined) body.name = fileName ?? 'file';
    const result = validateRecord(meta.def.create, body, false, this.config.maxBodyDepth);
    if (!result.ok) throw new BadRequestException(result.messages);
    return result.value;
  }
}
