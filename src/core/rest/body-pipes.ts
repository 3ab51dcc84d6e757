import {
  BadRequestException,
  ForbiddenException,
  Inject,
  Injectable,
  PipeTransform,
  Type,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { refuseUnwritable } from '../access/field-access';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { isPlainObject, isUuid } from '../fields/field-rules';
import { CollectionDefinition } from '../model/collection-definition';
import { QueryError } from '../errors/query-error';
import { Row } from '../model/record';
import { parseBoolean } from '../query/parse-params';
import { DuplicatesInput } from '../records/record-duplicates';
import { MergeInput } from '../records/record-merges';
import { parseMergeBody } from './merge-body';
import { BodyInput, CreateBodyInput } from './request-inputs';
import type { MultipartRequest } from './file-uploads';
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
 * Pipe of the body of an update (one or many records: the same partial record), validated against
 * the collection's update DTO (an absent or `null` body is a 400). The fields the key may not write
 * are refused by name first, whatever their values; the write services check them again
 * (WriteUnit.checkFields), on every write path.
 */
function updateBodyPipe(def: CollectionDefinition): Type<PipeTransform> {
  @Injectable()
  class UpdateBodyPipe implements PipeTransform {
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
    transform({ body, access }: BodyInput): Row {
      refuseUnwritable(access, def.plural, body, false);
      const result = validateRecord(def.update, body, false, this.config.maxBodyDepth);
      if (!result.ok) throw badRequest(result.messages);
      return result.value;
    }
  }
  return UpdateBodyPipe;
}

/** The records of a create and whether it is an upsert (`?upsert=true`). */
export interface CreateInput {
  records: Row[];
  upsert: boolean;
  /** A file upload (multipart/form-data) of a collection with files: the receiver reads it. */
  multipart?: MultipartRequest;
}

function parseUpsert(raw: unknown): boolean {
  if (raw !== undefined && typeof raw !== 'string')
    throw new QueryError(`Query parameter 'upsert' must be given once, as a string`);
  return parseBoolean('upsert', raw);
}

/** The body pipes of one collection, built once by the controller factory with its DTO classes bound as values. */
export function bodyPipesFor(def: CollectionDefinition) {
  const UpdateBodyPipe = updateBodyPipe(def);

  const createBodyPipe = (many: boolean): Type<PipeTransform> => {
    @Injectable()
    class CreateBodyPipe implements PipeTransform {
      constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
      transform({ body, upsert, multipart, access }: CreateBodyInput): CreateInput {
        const isUpsert = parseUpsert(upsert);
        if (multipart) {
          if (many || !def.files) throw new UnsupportedMediaTypeException('Body must be application/json');
          if (isUpsert) throw badRequest(['upsert is not available for a file upload']);
          return { records: [], upsert: false, multipart };
        }
        refuseUnwritable(access, def.plural, body, many);
        const dto = isUpsert ? def.update : def.create;
        let records: Row[];
        if (many) records = validateRecordArray(dto, body, this.config.batchMax, this.config.maxBodyDepth);
        else {
          const result = validateRecord(dto, body, true, this.config.maxBodyDepth);
          if (!result.ok) throw badRequest(result.messages);
          records = [result.value];
        }
        return { records, upsert: isUpsert };
      }
    }
    return CreateBodyPipe;
  };
  const CreateOneBodyPipe = createBodyPipe(false);
  const CreateManyBodyPipe = createBodyPipe(true);

  @Injectable()
  class MergeBodyPipe implements PipeTransform {
    transform({ body }: BodyInput): MergeInput {
      return parseMergeBody(body);
    }
  }

  // a key finds duplicates only by criteria it can read entirely (the matches would reveal the values)
  const criteriaFields = [...new Set(def.duplicateCriteria.flat().map((path) => path.split('.')[0]))];

  @Injectable()
  class DuplicatesBodyPipe implements PipeTransform {
    constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}
    transform({ body, access }: BodyInput): DuplicatesInput {
      const hidden = criteriaFields.find((f) => access.grant(def.plural)?.hidden.has(f));
      if (hidden)
        throw new ForbiddenException(
          `API key '${access.keyName}' may not find duplicates of ${def.plural}: '${hidden}' is hidden`,
        );
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
