import { UnsupportedMediaTypeException } from '@nestjs/common';
import { QueryError } from '../errors/query-error';
import type { ImportOperation } from './import-types';

/**
 * The query parameters of `POST /<collection>/import` (API.md section 17), each checked against
 * the values it takes; a value outside them is a 400 naming the parameter:
 *
 *   operation=create|upsert|update  atomic=true|false  max_errors=0..  dry_run=true|false
 *   blank=ignore|clear  delimiter=,|;|tab|pipe  webhooks=records|summary|none
 *
 * e.g. `?operation=upsert&atomic=false&max_errors=100&delimiter=;`
 */

export type ImportWebhooks = 'records' | 'summary' | 'none';

/** What a job does with its rows, as stored with it. */
export interface ImportOptions {
  operation: ImportOperation;
  format: 'csv' | 'ndjson';
  atomic: boolean;
  maxErrors: number;
  dryRun: boolean;
  blank: 'ignore' | 'clear';
  delimiter: string;
  webhooks: ImportWebhooks;
}

const DELIMITERS: Record<string, string> = { ',': ',', ';': ';', tab: '\t', pipe: '|' };
const MEDIA_TYPES: Record<string, ImportOptions['format']> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
};

function oneOf<T extends string>(name: string, raw: unknown, values: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !values.includes(raw as T))
    throw new QueryError(`Query parameter '${name}' must be one of ${values.join(', ')}`);
  return raw as T;
}

const flag = (name: string, raw: unknown, fallback: boolean) =>
  oneOf(name, raw, ['true', 'false'], fallback ? 'true' : 'false') === 'true';

/** The format of a body from its Content-Type (415 for any other). */
export function importFormat(contentType: unknown): ImportOptions['format'] {
  const type = typeof contentType === 'string' ? contentType.split(';')[0].trim().toLowerCase() : '';
  const format = MEDIA_TYPES[type];
  if (!format) throw new UnsupportedMediaTypeException('Body must be text/csv or application/x-ndjson');
  return format;
}

/** The options of an import from its query string (unknown parameters are refused by the route). */
export function parseImportOptions(query: Record<string, unknown>, contentType: unknown): ImportOptions {
  const maxErrorsRaw = query.max_errors;
  let maxErrors = 1000;
  if (maxErrorsRaw !== undefined) {
    if (typeof maxErrorsRaw !== 'string' || !/^\d{1,9}$/.test(maxErrorsRaw))
      throw new QueryError(`Query parameter 'max_errors' must be a whole number from 0`);
    maxErrors = Number(maxErrorsRaw);
  }
  const delimiter = oneOf('delimiter', query.delimiter, Object.keys(DELIMITERS), ',');
  return {
    operation: oneOf('operation', query.operation, ['create', 'upsert', 'update'], 'create'),
    format: importFormat(contentType),
    atomic: flag('atomic', query.atomic, true),
    maxErrors,
    dryRun: flag('dry_run', query.dry_run, false),
    blank: oneOf('blank', query.blank, ['ignore', 'clear'], 'ignore'),
    delimiter: DELIMITERS[delimiter],
    webhooks: oneOf('webhooks', query.webhooks, ['records', 'summary', 'none'], 'summary'),
  };
}
