import { Controller, Get, Headers, Module, Query, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { ServerResponse } from 'node:http';
import { Actor } from '../auth/request-actor.decorator';
import { ChangeFeed } from '../changes/change-feed.service';
import { ChangeStreams, ChangeStreamSink } from '../changes/change-streams';
import { tokenOf } from '../changes/change-tokens';
import { ChangesQuery, parseChangesQuery } from '../changes/changes-query';
import { ChangesModule } from '../changes/changes.module';
import { CollectionCatalog } from '../model/collection-catalog';
import { RequestActor } from '../model/record';
import { CHANGES_ROUTES } from '../routes/service-routes';
import { errors } from '../openapi/operation-parts';
import { CHANGE_SCHEMA, changesQueryDocs, sinceDoc, tokenSchema } from '../openapi/changes.docs';
import { RawQuery, readParams } from './request-params';
import { EVENT_STREAM_HEADERS, FastifyReply, takeOverResponse } from '../http/take-over-response';

/** The change feed (API.md section 15): head, pages after a token, and the live stream. */
@ApiTags('changes')
@ApiBearerAuth()
@Controller()
export class ChangesController {
  constructor(
    private readonly feed: ChangeFeed,
    private readonly streams: ChangeStreams,
    private readonly catalog: CollectionCatalog,
  ) {}

  @Get(CHANGES_ROUTES.head.path)
  @ApiOperation({ operationId: CHANGES_ROUTES.head.name, summary: 'The current position of the change feed' })
  @ApiResponse({
    status: 200,
    description: 'Reading from this token gives exactly the changes committed after it',
    schema: tokenSchema,
  })
  @errors(400, 401, 429)
  async head(@Query() raw: RawQuery) {
    readParams(raw, CHANGES_ROUTES.head.params);
    return { data: { token: await this.feed.head() } };
  }

  @Get(CHANGES_ROUTES.page.path)
  @ApiOperation({
    operationId: CHANGES_ROUTES.page.name,
    summary: 'The changes committed after a token, in commit order',
  })
  @changesQueryDocs(true)
  @ApiResponse({
    status: 200,
    description: 'A page of changes; the next page is since=pageInfo.endCursor',
    schema: {
      type: 'object',
      required: ['data', 'pageInfo'],
      properties: {
        data: {
          type: 'object',
          required: ['changes'],
          properties: { changes: { type: 'array', items: CHANGE_SCHEMA } },
        },
        pageInfo: {
          type: 'object',
          required: ['hasNextPage', 'endCursor'],
          properties: { hasNextPage: { type: 'boolean' }, endCursor: { type: 'string' } },
        },
      },
    },
  })
  @errors(400, 401, 410, 429)
  async changes(@Query() raw: RawQuery, @Actor() actor: RequestActor) {
    const query = this.parse(readParams(raw, CHANGES_ROUTES.page.params), actor);
    const page = await this.feed.page(query, actor.access);
    return {
      data: { changes: page.changes.map((c) => c.change) },
      pageInfo: { hasNextPage: page.hasNextPage, endCursor: tokenOf(page.end) },
    };
  }

  @Get(CHANGES_ROUTES.stream.path)
  @ApiOperation({
    operationId: CHANGES_ROUTES.stream.name,
    summary: 'The changes after a token, then every new one as it commits (Server-Sent Events)',
  })
  @changesQueryDocs(false)
  @ApiResponse({
    status: 200,
    description: `Events \`id: <token>\`, \`event: change\`, \`data: <change JSON>\`; a comment line at least every 15 s. ${sinceDoc}`,
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @errors(400, 401, 410, 429)
  async stream(
    @Query() raw: RawQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Actor() actor: RequestActor,
    @Res() res: ServerResponse | FastifyReply,
  ): Promise<void> {
    const params = readParams(raw, CHANGES_ROUTES.stream.params);
    const query = this.parse({ ...params, since: lastEventId || params.since }, actor);
    const selection = this.feed.selection(actor.access, query);
    await this.feed.fetch(selection, query.since, 0); // 410 before the stream starts
    const out = takeOverResponse(res);
    out.writeHead(200, EVENT_STREAM_HEADERS);
    out.write(': stream open\n\n');
    const sink: ChangeStreamSink = {
      since: query.since,
      access: actor.access,
      selection,
      collections: selection === 'all' ? undefined : new Set(selection.map((s) => s.meta.plural)),
      rowFiltered: selection !== 'all' && selection.some((s) => s.rows),
      send: (text) => void out.write(text),
      congested: () => out.writableNeedDrain,
      end: () => out.end(),
    };
    out.on('close', () => this.streams.remove(sink));
    // a client too slow to take what was sent is read for again once it has
    out.on('drain', () => this.streams.wake());
    this.streams.add(sink);
  }

  private parse(params: { since?: string; limit?: string; collections?: string }, actor: RequestActor): ChangesQuery {
    return parseChangesQuery(this.catalog, params, actor.access);
  }
}

@Module({ imports: [ChangesModule], controllers: [ChangesController] })
export class ChangesRoutesModule {}
