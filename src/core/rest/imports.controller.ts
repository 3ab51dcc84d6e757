import {
  BadRequestException,
  Controller,
  Get,
  Headers,
  Module,
  NotFoundException,
  Param,
  Post,
  Query,
  Req,
  Res,
} from '@nestjs/common';
import { ApiBearerAuth, ApiExcludeEndpoint, ApiTags } from '@nestjs/swagger';
import { stringify } from 'csv-stringify/sync';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Actor } from '../auth/request-actor.decorator';
import { QueryError } from '../errors/query-error';
import { isUuid } from '../fields/field-rules';
import { EVENT_STREAM_HEADERS, FastifyReply, takeOverResponse } from '../http/take-over-response';
import { ImportJobs } from '../imports/import-jobs';
import { FINISHED, jobView } from '../imports/import-job-view';
import { parseImportOptions } from '../imports/import-options';
import { ImportsModule } from '../imports/imports.module';
import { CollectionCatalog } from '../model/collection-catalog';
import { CSV_OPTIONS } from '../records/export-formats';
import { RequestActor } from '../model/record';
import { importDocs } from '../openapi/imports.docs';
import { IMPORT_ROUTES, routerPath } from '../routes/service-routes';
import { IdempotencyKey } from './request-headers';
import { RawQuery, readParams } from './request-params';

/** `Prefer: wait=<seconds>` (RFC 7240): how long the start of an import may wait for its end (60 at most). */
function waitPreference(header: unknown): number | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /(?:^|,)\s*wait\s*=\s*"?(\d+)"?/i.exec(header);
  return match ? Math.min(60, Number(match[1])) : undefined;
}

const cursorOf = (createdAt: unknown, id: string) => Buffer.from(`${String(createdAt)}|${id}`).toString('base64url');

function parseCursor(raw: string | undefined): [string, string] | null {
  if (raw === undefined) return null;
  const [createdAt, id] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (!id || !isUuid(id) || Number.isNaN(Date.parse(createdAt))) throw new QueryError(`Invalid cursor '${raw}'`);
  return [createdAt, id];
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * Imports (API.md section 17): `POST /<collection>/import` streams the body into the file storage
 * and queues a job (202 and its Location, or 200 with the finished job under `Prefer: wait`); the
 * job, its list, its progress stream, its error report and its cancellation.
 */
@ApiTags('imports')
@ApiBearerAuth()
@Controller()
export class ImportsController {
  constructor(
    private readonly jobs: ImportJobs,
    private readonly catalog: CollectionCatalog,
  ) {}

  @Post(routerPath(IMPORT_ROUTES.start))
  @ApiExcludeEndpoint() // documented once per collection, in its tag (openapi/import-operation.ts)
  async start(
    @Param('plural') plural: string,
    @Query() raw: RawQuery,
    @Headers('content-type') contentType: string | undefined,
    @Headers('prefer') prefer: string | undefined,
    @IdempotencyKey() idempotencyKey: string | undefined,
    @Actor() actor: RequestActor,
    @Req() req: IncomingMessage | { raw: IncomingMessage },
    @Res() res: ServerResponse | FastifyReply,
  ): Promise<void> {
    const meta = this.catalog.get(plural);
    if (!meta) {
      // as every route of an unknown collection answers (unknown-route.controller.ts)
      const known = this.catalog.pluralOf(plural);
      throw new BadRequestException(
        known
          ? `object '${plural}' not found. Did you mean '${known}'?`
          : `object '${plural}' not found. eg: companies`,
      );
    }
    const options = parseImportOptions(readParams(raw, IMPORT_ROUTES.start.params), contentType);
    const body = 'raw' in req ? req.raw : req;
    const { job, replayed } = await this.jobs.start(meta, options, body, actor, idempotencyKey);
    const wait = waitPreference(prefer);
    const current = wait === undefined || replayed ? job : jobView(await this.jobs.waitFor(job.id, wait));
    const headers: Record<string, string> = { location: `/rest/imports/${job.id}` };
    if (replayed) headers['idempotent-replayed'] = 'true';
    if (wait !== undefined) headers['preference-applied'] = `wait=${wait}`;
    sendJson(
      takeOverResponse(res),
      FINISHED.has(current.state) && wait !== undefined ? 200 : 202,
      { data: { import: current } },
      headers,
    );
  }

  @Get(routerPath(IMPORT_ROUTES.list))
  @importDocs('list')
  async list(@Query() raw: RawQuery, @Actor() actor: RequestActor) {
    const params = readParams(raw, IMPORT_ROUTES.list.params);
    const limit = params.limit === undefined ? 60 : Number(params.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 200)
      throw new QueryError(`limit '${params.limit}' is invalid: an integer from 1 to 200`);
    const rows = await this.jobs.list(actor, limit + 1, parseCursor(params.starting_after));
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      data: { imports: page.map(jobView) },
      pageInfo: {
        hasNextPage: rows.length > limit,
        startCursor: page.length ? cursorOf(page[0].createdAt, page[0].id) : null,
        endCursor: last ? cursorOf(last.createdAt, last.id) : null,
      },
    };
  }

  @Get(routerPath(IMPORT_ROUTES.one))
  @importDocs('one')
  async one(@Param('id') id: string, @Query() raw: RawQuery, @Actor() actor: RequestActor) {
    readParams(raw, IMPORT_ROUTES.one.params);
    return { data: { import: jobView(await this.jobs.find(this.id(id), actor)) } };
  }

  @Post(routerPath(IMPORT_ROUTES.cancel))
  @importDocs('cancel')
  async cancel(
    @Param('id') id: string,
    @Query() raw: RawQuery,
    @Actor() actor: RequestActor,
    @Res() res: ServerResponse | FastifyReply,
  ) {
    readParams(raw, IMPORT_ROUTES.cancel.params);
    const job = await this.jobs.cancel(this.id(id), actor);
    sendJson(takeOverResponse(res), 200, { data: { import: jobView(job) } });
  }

  @Get(routerPath(IMPORT_ROUTES.errors))
  @importDocs('errors')
  async errors(
    @Param('id') id: string,
    @Query() raw: RawQuery,
    @Actor() actor: RequestActor,
    @Res() res: ServerResponse | FastifyReply,
  ): Promise<void> {
    const { format = 'csv' } = readParams(raw, IMPORT_ROUTES.errors.params);
    if (format !== 'csv' && format !== 'ndjson')
      throw new QueryError(`Query parameter 'format' must be one of csv, ndjson`);
    const job = await this.jobs.find(this.id(id), actor);
    const out = takeOverResponse(res);
    out.writeHead(200, {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
      'content-disposition': `attachment; filename="import-${job.id}-errors.${format}"`,
    });
    // the export's CSV (RFC 4180, every line break quoted)
    const options = CSV_OPTIONS;
    if (format === 'csv') out.write(stringify([['line', 'column', 'code', 'message']], options));
    try {
      for await (const error of this.jobs.errors(job.id)) {
        const text =
          format === 'csv'
            ? stringify([[error.line, error.column ?? '', error.code, error.message]], options)
            : `${JSON.stringify(error)}\n`;
        if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
        if (out.destroyed) return;
      }
      out.end();
    } catch {
      out.destroy();
    }
  }

  @Get(routerPath(IMPORT_ROUTES.stream))
  @importDocs('stream')
  async stream(
    @Param('id') id: string,
    @Query() raw: RawQuery,
    @Actor() actor: RequestActor,
    @Res() res: ServerResponse | FastifyReply,
  ): Promise<void> {
    readParams(raw, IMPORT_ROUTES.stream.params);
    let job = await this.jobs.find(this.id(id), actor);
    const out = takeOverResponse(res);
    out.writeHead(200, EVENT_STREAM_HEADERS);
    let open = true;
    out.on('close', () => (open = false));
    while (open && !FINISHED.has(job.state)) {
      out.write(`event: progress\ndata: ${JSON.stringify(jobView(job))}\n\n`);
      await new Promise((resolve) => setTimeout(resolve, 500));
      job = await this.jobs.find(job.id, actor);
    }
    if (open) out.end(`event: done\ndata: ${JSON.stringify(jobView(job))}\n\n`);
  }

  private id(id: string): string {
    if (!isUuid(id)) throw new NotFoundException(`Import '${id}' not found`);
    return id.toLowerCase();
  }
}

@Module({ imports: [ImportsModule], controllers: [ImportsController] })
export class ImportsRoutesModule {}
