import { Controller, Param, Query, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Actor } from '../../core/auth/request-actor.decorator';
import { FastifyReply, takeOverResponse } from '../../core/http/take-over-response';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import type { RequestActor } from '../../core/model/record';
import { UuidParamPipe } from '../../core/rest/body-pipes';
import { createCrudController } from '../../core/rest/crud-controller.factory';
import { fileRoute } from '../../core/rest/route-mapping';
import { RecordServices } from '../../core/records/record-services';
import { UploadReceiver } from '../../core/rest/file-uploads';
import { attachments } from './attachment.entity';
import { AttachmentFiles, DownloadResponse } from './attachment-files';

/** Node's response of either adapter, and a way to take it over (until then errors go through the filter). */
function responseOf(reply: ServerResponse | FastifyReply): DownloadResponse {
  return { raw: 'raw' in reply ? reply.raw : reply, takeOver: () => takeOverResponse(reply) };
}

const rawRequest = (request: unknown) => ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;

/**
 * The routes of every collection (a multipart upload included: the create route hands it to
 * AttachmentUploads), and the file routes of API.md section 16: the download of an attachment's
 * file (with a key that may read it, or a signed link) and its signed links.
 */
@Controller()
export class AttachmentsController extends createCrudController(attachments) {
  constructor(
    catalog: CollectionCatalog,
    records: RecordServices,
    uploads: UploadReceiver,
    private readonly files: AttachmentFiles,
  ) {
    super(catalog, records, uploads);
  }

  /** Reachable without a key through a signed link (`expires` and `signature`); with a key, `read` and its row filter apply. */
  @fileRoute(attachments, 'downloadFile')
  async content(
    @Param('id', UuidParamPipe) id: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Actor() actor: RequestActor | undefined,
    @Req() request: unknown,
    @Res() reply: ServerResponse | FastifyReply,
  ): Promise<void> {
    const access = actor ? actor.access : this.files.signedAccess(id, expires, signature);
    // errors (404, 416) are answered by the exception filter, before the response is taken over
    await this.files.download(id, access, rawRequest(request), responseOf(reply));
  }

  @fileRoute(attachments, 'createFileLink')
  async link(@Param('id', UuidParamPipe) id: string, @Actor() actor: RequestActor, @Req() request: unknown) {
    return { data: await this.files.link(id, actor.access, rawRequest(request)) };
  }
}
