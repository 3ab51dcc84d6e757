import { Controller, Get, Inject, Injectable, Module, PipeTransform } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Reading, ReadRequest, ReadsFromReplica } from '../http/replica-reads';
import { CollectionCatalog } from '../model/collection-catalog';
import { errors } from '../openapi/operation-parts';
import { parseSearchQuery, SearchQuery } from '../query/search-query';
import { RecordSearch } from '../records/record-search';
import { KeyRing } from '../security/keys';
import { readParams } from './request-params';
import { QueryInput, RouteQuery } from './request-inputs';

const SEARCH_PARAMS = ['query', 'objects', 'limit', 'starting_after'] as const;

@Injectable()
class SearchQueryPipe implements PipeTransform<QueryInput, SearchQuery> {
  constructor(
    @Inject(CollectionCatalog) private readonly catalog: CollectionCatalog,
    @Inject(KeyRing) private readonly keys: KeyRing,
  ) {}
  transform({ query, access }: QueryInput): SearchQuery {
    return parseSearchQuery(this.catalog, readParams(query, SEARCH_PARAMS), this.keys.cursorKey, access);
  }
}

const text = { type: 'string' } as const;

/** `GET /search` across the collections that have a search vector (API.md section 12). */
@ApiTags('search')
@ApiBearerAuth()
@Controller()
export class SearchController {
  constructor(private readonly records: RecordSearch) {}

  @Get('search')
  @ReadsFromReplica()
  @ApiOperation({
    operationId: 'search',
    summary: 'Search records across collections (every word as a prefix, accents and case ignored)',
  })
  @ApiQuery({
    name: 'query',
    required: true,
    description: 'Words; each must start a word of the record: `ada lov` finds Ada Lovelace',
    schema: text,
  })
  @ApiQuery({
    name: 'objects',
    required: false,
    description: 'Collections to search (plural names, comma separated); all searchable ones by default',
    schema: text,
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Results per page: default 20, at most 100',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  })
  @ApiQuery({
    name: 'starting_after',
    required: false,
    description: 'pageInfo.endCursor of the previous page',
    schema: text,
  })
  @ApiResponse({
    status: 200,
    description: 'Matches, best first (tsRank descending, then recordId)',
    schema: {
      type: 'object',
      required: ['data', 'pageInfo'],
      properties: {
        data: {
          type: 'object',
          required: ['search'],
          properties: {
            search: {
              type: 'array',
              items: {
                type: 'object',
                required: ['objectNameSingular', 'recordId', 'label', 'imageUrl', 'tsRank', 'tsRankCD', 'record'],
                properties: {
                  objectNameSingular: text,
                  recordId: { type: 'string', format: 'uuid' },
                  label: text,
                  imageUrl: { type: 'string', nullable: true },
                  tsRank: { type: 'number' },
                  tsRankCD: { type: 'number' },
                  record: { type: 'object', description: 'The record at depth 0' },
                },
              },
            },
          },
        },
        pageInfo: {
          type: 'object',
          required: ['hasNextPage', 'endCursor'],
          properties: { hasNextPage: { type: 'boolean' }, endCursor: { type: 'string', nullable: true } },
        },
      },
    },
  })
  @errors(400, 401, 429)
  async search(@RouteQuery(SearchQueryPipe) query: SearchQuery, @Reading() { access, reads }: ReadRequest) {
    const { results, pageInfo } = await this.records.search(query, access, reads);
    return { data: { search: results }, pageInfo };
  }
}

@Module({ controllers: [SearchController] })
export class SearchModule {}
