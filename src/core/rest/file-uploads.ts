import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CollectionMeta } from '../model/collection-meta';
import type { RequestActor } from '../model/record';
import type { Shape } from '../query/record-shape';
import type { CreateResult } from '../records/write-unit';

/** A `multipart/form-data` create, its body left unread for the receiver to stream (both adapters). */
export interface MultipartRequest {
  request: IncomingMessage;
  response: ServerResponse;
}

/**
 * What turns a multipart create of a collection with files (`files: true`, API.md section 16)
 * into a record: provided by the module of that collection (attachments), called by the create
 * route of the shared controller. Core names no collection: a collection registers it.
 */
export abstract class UploadReceiver {
  /** The created record (a replay of the first answer for a repeated `Idempotency-Key`). */
  abstract receive(
    meta: CollectionMeta,
    upload: MultipartRequest,
    shape: Shape,
    actor: RequestActor,
    idempotencyKey: string | undefined,
  ): Promise<CreateResult>;
}

const MULTIPART = /^multipart\/form-data\s*(;|$)/i;

/** Whether a request's Content-Type is multipart/form-data. */
export function isMultipart(contentType: unknown): boolean {
  return typeof contentType === 'string' && MULTIPART.test(contentType);
}
