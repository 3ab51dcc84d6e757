import { ForbiddenException, HttpException, HttpStatus, Inject, Injectable, NotFoundException } from '@nestjs/common';
import contentDisposition from 'content-disposition';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { Db } from '../../core/database/db';
import { UnauthenticatedException } from '../../core/errors/error-names';
import { FileStorage, objectKeyFor, ObjectNotFoundError, parseRange, signLink, verifyLink } from '../../core/files';
import { adminAccess, type Access } from '../../core/model/access';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import type { CollectionMeta } from '../../core/model/collection-meta';
import { Repositories } from '../../core/repository/repositories';
import { KeyRing } from '../../core/security/keys';

/** The stored file of an attachment, as a download needs it. */
interface StoredFile {
  id: string;
  key: string;
  name: string;
  size: number;
  mimeType: string;
  etag: string;
}

/** What a client must see of a downloaded file (API.md section 16): it is data, never a page of this site. */
const DOWNLOAD_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
  'Cache-Control': 'private, no-cache',
  'Accept-Ranges': 'bytes',
};

/** Node's response, with `takeOver()` to call before writing the answer itself (Fastify: hijack). */
export interface DownloadResponse {
  raw: ServerResponse;
  takeOver(): ServerResponse;
}

/**
 * `Content-Disposition: attachment` (RFC 6266): the name in `filename*` (UTF-8) whenever it is not
 * plain ASCII, and an ASCII stand-in in `filename` for old clients (accents dropped, others `_`).
 */
function dispositionOf(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '_');
  return contentDisposition(name, { type: 'attachment', fallback: ascii });
}

/** `If-None-Match` matches `etag` (weak comparison, as RFC 9110 asks for it). */
function noneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Downloads (`GET /attachments/<id>/content`, ranges and conditional requests included) and
 * signed links (`POST /attachments/<id>/link`) of the files of attachments.
 */
@Injectable()
export class AttachmentFiles {
  private readonly meta: CollectionMeta;
  private readonly linkKey: Buffer;

  constructor(
    catalog: CollectionCatalog,
    keys: KeyRing,
    private readonly repositories: Repositories,
    private readonly db: Db,
    private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.meta = catalog.require('attachments');
    const secret = config.files.linkSecret;
    this.linkKey = secret ? Buffer.from(secret, 'utf8') : keys.fileLinkKey;
  }

  /** The file of a live attachment the key may read (its row filter applies), else 404. */
  private async fileOf(id: string, access: Access): Promise<StoredFile> {
    const row = await this.repositories.of(this.meta, access).findLive(this.db, id);
    if (!row) throw new NotFoundException('Record not found');
    const checksum = row.checksum as string | null;
    if (!checksum) throw new NotFoundException('This attachment has no stored file');
    return {
      id,
      key: objectKeyFor(id),
      name: (row.name as string) || 'file',
      size: Number(row.size),
      mimeType: (row.mimeType as string | null) ?? 'application/octet-stream',
      etag: `"${checksum.replace(/^sha256:/, '')}"`,
    };
  }

  /** A URL that downloads the file without a bearer token until it expires. */
  async link(id: string, access: Access, request: IncomingMessage): Promise<{ url: string; expiresAt: string }> {
    await this.fileOf(id, access);
    const expires = Math.floor(Date.now() / 1000) + this.config.files.linkTtlSeconds;
    const signature = signLink(this.linkKey, id, expires);
    const base =
      this.config.files.publicUrl ?? `http://${request.headers.host ?? `${this.config.host}:${this.config.port}`}`;
    return {
      url: `${base}/rest/attachments/${id}/content?expires=${expires}&signature=${signature}`,
      expiresAt: new Date(expires * 1000).toISOString(),
    };
  }

  /** The access of a request with no API key: a valid signed link reads that one file, else 403. */
  signedAccess(id: string, expires: unknown, signature: unknown): Access {
    if (expires === undefined && signature === undefined)
      throw new UnauthenticatedException('Missing bearer token: send the header Authorization: Bearer <api key>');
    if (
      typeof expires !== 'string' ||
      typeof signature !== 'string' ||
      !verifyLink(this.linkKey, id, expires, signature)
    )
      throw new ForbiddenException('This download link is invalid or has expired');
    return adminAccess('signed link');
  }

  /**
   * Answers a download: 304 when `If-None-Match` matches, 206 for a satisfiable single range, 416
   * for an unsatisfiable one, else 200 with the whole file; the bytes stream from the storage with
   * backpressure, and a client that goes away destroys the storage stream.
   */
  async download(id: string, access: Access, request: IncomingMessage, out: DownloadResponse): Promise<void> {
    const file = await this.fileOf(id, access);
    const range = parseRange(request.headers.range, file.size);
    if (range.kind === 'unsatisfiable') {
      out.raw.setHeader('Content-Range', `bytes */${file.size}`);
      throw new HttpException(
        `Range ${request.headers.range} is past the end of the file (${file.size} bytes)`,
        HttpStatus.REQUESTED_RANGE_NOT_SATISFIABLE,
      );
    }
    const notModified = noneMatch(request.headers['if-none-match'], file.etag);
    const body =
      notModified || request.method === 'HEAD'
        ? undefined
        : await this.storage.get(file.key, range.kind === 'range' ? range.range : undefined).catch((error) => {
            if (error instanceof ObjectNotFoundError)
              throw new NotFoundException('The stored file of this attachment is missing');
            throw error;
          });
    const response = out.takeOver();
    for (const [name, value] of Object.entries(DOWNLOAD_HEADERS)) response.setHeader(name, value);
    response.setHeader('ETag', file.etag);
    if (notModified) {
      response.statusCode = 304;
      response.end();
      return;
    }
    response.setHeader('Content-Type', file.mimeType);
    response.setHeader('Content-Disposition', dispositionOf(file.name));
    if (range.kind === 'range') {
      const { start, end } = range.range;
      response.statusCode = 206;
      response.setHeader('Content-Range', `bytes ${start}-${end}/${file.size}`);
      response.setHeader('Content-Length', end - start + 1);
    } else {
      response.statusCode = 200;
      response.setHeader('Content-Length', file.size);
    }
    if (!body) {
      response.end();
      return;
    }
    // a client that goes away ends the pipeline: the storage stream is destroyed with it
    await pipeline(body, response).catch(() => body.destroy());
  }
}
