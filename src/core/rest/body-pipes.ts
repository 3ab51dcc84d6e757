import {
  BadRequestException,
  createParamDecorator,
  ExecutionContext,
  Inject,
  Injectable,
  PipeTransform,
  Type,
} from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isPlainObject, isUuid } from '../fields/field-rules';
import { CollectionDefinition } from '../model/collection-definition';
import { QueryError } from '../errors/query-error';
import { Row } from '../model/record';
import { parseBoolean } from '../query/parse-params';
import { DuplicatesInput } from '../records/record-duplicates';
import { MergeInput } from '../records/record-merges';
import { parseMergeBody } from './merge-body';
import { badRequest, validateRecord, validateRecordArray } from '../validation/record-body';

/** Path parameter `:id`: a UUID, else 400 `'abc' is not a valid UUID`. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw new BadRequestException(`'${value}' is not a valid UUID`);
    return value.toLowerCase();
  }
}

/**
 * The body pipes of one collection, built by the controller factory with the collection's DTO
 * classes bound as values. They are Nest-injectable classes so limits come from configuration.
 */
/** Pipe of one record body validated against `dto` (an absent or `null` body is a 400). */
function singleRecordPipe(dto: Type<object>, allowId: boolean): Type<PipeTransform> {
  @Injectable()
  class SingleRecordBodyPipe implements PipeTransform {
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
    transform(body: unknown) {
      const result = validateRecord(dto, body, allowId, this.config.maxBodyDepth);
      if (!result.ok) throw badRequest(result.messages);
      return result.value;
    }
  }
  return SingleRecordBodyPipe;
}

/** The records of a create and whether it is an upsert (`?upsert=true`). */
export interface CreateInput {
  records: Row[];
  upsert: boolean;
}

/**
 * The body of a create with its `upsert` query parameter, read together because they go
 * together: the items of an upsert are partial records (a matched record is patched), the items
 * of a create are whole ones. Validated by the create body pipes.
 */
export const CreateBody = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const request = ctx.switchToHttp().getRequest<{ body: unknown; query?: Record<string, unknown> }>();
  return { body: request.body, upsert: request.query?.upsert };
});

function parseUpsert(raw: unknown): boolean {
  if (raw !== undefined && typeof raw !== 'string')
    throw new QueryError(`Query parameter 'upsert' must be given once, as a string`);
  return parseBoolean('upsert', raw);
}

export function bodyPipesFor(def: CollectionDefinition) {
  const UpdateBodyPipe = singleRecordPipe(def.update, false);

  const createBodyPipe = (many: boolean): Type<PipeTransform> => {
    @Injectable()
    class CreateBodyPipe implements PipeTransform {
      constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
      transform({ body, upsert }: { body: unknown; upsert: unknown }): CreateInput {
        const isUpsert = parseUpsert(upsert);
        const dto = isUpsert ? def.update : def.create;
        if (many)
          return {
            records: validateRecordArray(dto, body, this.config.batchMax, this.config.maxBodyDepth),
            upsert: isUpsert,
          };
        const result = validateRecord(dto, body, true, this.config.maxBodyDepth);
        if (!result.ok) throw badRequest(result.messages);
        return { records: [result.value], upsert: isUpsert };
      }
    }
    return CreateBodyPipe;
  };
  const CreateOneBodyPipe = createBodyPipe(false);
  const CreateManyBodyPipe = createBodyPipe(true);

  @Injectable()
  class MergeBodyPipe implements PipeTransform {
    transform(body: unknown): MergeInput {
      return parseMergeBody(body);
    }
  }

  @Injectable()
  class DuplicatesBodyPipe implements PipeTransform {
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
    transform(body: unknown): DuplicatesInput {
      return parseDuplicatesBody(def.update, body, this.config.batchMax, this.config.maxBodyDepth);
    }
  }

  return { CreateOneBodyPipe, CreateManyBodyPipe, UpdateBodyPipe, DuplicatesBodyPipe, MergeBodyPipe };
}

/** `{"data": [partial records]}` or `{"ids": [uuids]}`, exactly one (API.md section 5). */
export function parseDuplicatesBody(
  partial: Type<object>,
  body: unknown,
  max: number,
  maxDepth?: number,
): DuplicatesInput {
  if (!isPlainObject(body)) throw badRequest(['Body must be a JSON object']);
  const extra = Object.keys(body).filter((k) => k !== 'data' && k !== 'ids');
  if (extra.length) throw badRequest(extra.map((k) => `property ${k} should not exist`));
  const hasData = body.data !== undefined;
  const hasIds = body.ids !== undefined;
  if (!hasData && !hasIds) throw badRequest(['You have to provide either "data" or "ids" argument']);
  if (hasData && hasIds) throw badRequest(['You cannot provide both "data" and "ids" arguments']);
  if (hasIds) {
    const ids = body.ids;
    if (!Array.isArray(ids)) throw badRequest(['ids must be an array of UUIDs']);
    if (ids.length > max) throw badRequest([`ids may hold at most ${max} values`]);
    const bad = ids
      .map((id, i) => (isUuid(id) ? undefined : `[${i}] '${String(id)}' is not a valid UUID`))
      .filter(Boolean);
    if (bad.length) throw badRequest(bad as string[]);
    return { ids: (ids as string[]).map((id) => id.toLowerCase()) };
  }
  if (!Array.isArray(body.data)) throw badRequest(['data must be an array of records']);
  if (body.data.length === 0) throw badRequest(['data must hold at least one record']);
  if (body.data.length > max) throw badRequest([`data may hold at most ${max} records`]);
  const messages: string[] = [];
  const data = body.data.map((item, index) => {
    const result = validateRecord(partial, item, false, maxDepth === undefined ? undefined : maxDepth - 2);
    if (!result.ok) messages.push(...result.messages.map((m) => `[${index}] ${m}`));
    return result.ok ? result.value : {};
  });
  if (messages.length) throw badRequest(messages);
  return { data };
}
