import type { Access } from '../model/access';
import type { CollectionDefinition } from '../model/collection-definition';
import { CollectionMeta } from '../model/collection-meta';
import { csvColumns } from '../records/export-formats';
import { uniqueKeys } from '../records/upsert-plan';
import { fill } from '../routes/route-paths';
import { IMPORT_ROUTES } from '../routes/service-routes';
import { importAnswer } from './imports.docs';
import { ERROR_DESCRIPTIONS, errorRef, Schema } from './operation-parts';
import { ROUTE_DOCS } from './route-docs';
import type { DocumentLimits } from './route-parameters';

/**
 * The import route of one collection (`POST /<plural>/import`, API.md section 17) in the OpenAPI
 * document: its query parameters (IMPORT_ROUTES.start's, each with the values it takes), the
 * `Prefer: wait` and `Idempotency-Key` headers, the CSV or NDJSON body (the columns of the
 * collection's CSV export, and its relation columns by unique value) and the job it answers.
 */

type Operation = 'create' | 'upsert' | 'update';

const query = (name: string, description: string, schema: Schema) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** Each query parameter of the import, by name (the parser in core/imports/import-options.ts is the authority). */
function importParameter(name: string, operations: readonly Operation[]): Schema {
  switch (name) {
    case 'operation':
      return query(
        name,
        'create: every row is a new record. upsert: a row is matched by id, else by each unique field; matched → ' +
          'updated, else created. update: a row must match (by id or a unique field), else it is a row error. ' +
          'The key needs create on the collection for create, update for update, both for upsert.',
        { type: 'string', enum: operations, ...(operations.includes('create') ? { default: 'create' } : {}) },
      );
    case 'atomic':
      return query(
        name,
        'true: every row is written or none (one rejected row → nothing written, no event; the job ends failed). ' +
          'false: valid rows are written in checkpoints of at most 10,000 rows and rejected rows are reported.',
        { type: 'boolean', default: true },
      );
    case 'max_errors':
      return query(
        name,
        'With atomic=false: the job stops (failed) at rejected row number max_errors + 1; rows already written stay, ' +
          'the rows after it count as unprocessed.',
        { type: 'integer', minimum: 0, maximum: 999_999_999, default: 1000 },
      );
    case 'dry_run':
      return query(
        name,
        'true: every check of a real run (types, options, unique values, relations, access), nothing written, no ' +
          'event; the counters say what a real run would do.',
        { type: 'boolean', default: false },
      );
    case 'blank':
      return query(
        name,
        'An empty CSV cell: ignore leaves the field (or sub-field) as it is (unset on create); clear sets the field ' +
          'to null, a sub-field to its empty value.',
        { type: 'string', enum: ['ignore', 'clear'], default: 'ignore' },
      );
    case 'delimiter':
      return query(name, 'The CSV cell separator: a comma, a semicolon, a tab or a pipe (|).', {
        type: 'string',
        enum: [',', ';', 'tab', 'pipe'],
        default: ',',
      });
    case 'webhooks':
      return query(
        name,
        'records: one webhook per record event, as for API writes; summary: one import.completed / import.failed ' +
          'webhook per job (to the webhooks subscribed to it); none.',
        { type: 'string', enum: ['records', 'summary', 'none'], default: 'summary' },
      );
    default:
      throw new Error(`The import parameter '${name}' has no documentation`);
  }
}

const HEADERS = [
  {
    name: 'Prefer',
    in: 'header',
    required: false,
    description:
      'wait=<seconds> (RFC 7240; more than 60 counts as 60): the answer waits for the job to finish: 200 with the ' +
      'finished job if it did, else 202. Echoed in Preference-Applied.',
    schema: { type: 'string', examples: ['wait=30'] },
  },
  {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the start safe to retry: the same key (per API key) with the same bytes and parameters gets the first ' +
      'job again (with Idempotent-Replayed: true), one job in all; the same key with anything else is refused with 422.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
];

/** The columns of the body: the CSV export's header (what the key may read), and the relation columns by unique value. */
function columnsOf(meta: CollectionMeta, metaOf: (plural: string) => CollectionMeta | undefined, access?: Access) {
  const grant = access?.grant(meta.plural);
  // a key's own fields: those it may read and write (its export without the read-only ones)
  const header = csvColumns(meta, (name) => !grant?.omitted.has(name) && !grant?.readOnly.has(name)).map(
    (c) => c.header,
  );
  const relations = meta.manyToOne.flatMap((relation) => {
    const target = metaOf(relation.target);
    const readable = access?.grant(relation.target);
    const writable = !grant?.hidden.has(relation.joinColumn) && !grant?.readOnly.has(relation.joinColumn);
    if (!target || (access && (!readable?.actions.has('read') || !writable))) return [];
    return uniqueKeys(target)
      .filter((key) => !readable?.hidden.has(key.path.split('.')[0]))
      .map((key) => `${relation.name}.${key.path}`);
  });
  return { header, relations };
}

function bodyDescription(def: CollectionDefinition, columns: { relations: string[] }): string {
  return (
    `RFC 4180 (UTF-8, CRLF or LF), a header row, then one ${def.singular} per row. Columns: the field paths exactly ` +
    'as the CSV export writes them (composite sub-fields dotted, join columns, id, createdAt; updatedAt and ' +
    "deletedAt are read and ignored): the example is the header of this collection's export. " +
    (columns.relations.length
      ? `A relation by a unique value of its target, <relation>.<unique field path>: ${columns.relations.join(', ')}. `
      : '') +
    'ARRAY, MULTI_SELECT, RAW_JSON and list-like sub-fields are JSON text; an unknown, repeated or unwritable ' +
    'column is a 400 naming every one, before anything is stored.'
  );
}

const job = (description: string) => ({
  description,
  headers: {
    Location: { description: 'The job: /rest/imports/<id>', schema: { type: 'string' } },
    'Preference-Applied': { description: 'wait=<seconds>, under Prefer: wait', schema: { type: 'string' } },
    'Idempotent-Replayed': {
      description: 'true when the job is that of an earlier request',
      schema: { type: 'string' },
    },
  },
  content: { 'application/json': { schema: importAnswer } },
});

/** What the import's errors mean, where they say more than those of the other routes. */
const importErrors = (limits: DocumentLimits): Record<number, string> => ({
  400: 'A query parameter outside its values (named), a bad column of the CSV header (every one named), or a collection that cannot be imported',
  413: `Body larger than IMPORT_MAX_BYTES (here ${limits.importMaxBytes} bytes): refused as soon as the limit is passed, nothing kept`,
  415: 'Body that is not text/csv or application/x-ndjson',
  422: 'Idempotency-Key already used with a different import',
});

/**
 * The import operation of one collection, or none when the key may neither create nor update
 * its records; the `operation` values are those its grant allows.
 */
export function importOperation(
  def: CollectionDefinition,
  metaOf: (plural: string) => CollectionMeta | undefined,
  limits: DocumentLimits,
  order: number,
  access?: Access,
): Schema | undefined {
  const actions = access?.grant(def.plural)?.actions;
  const may = (action: 'create' | 'update') => !access || actions?.has(action) === true;
  const operations = (['create', 'upsert', 'update'] as const).filter((o) =>
    o === 'upsert' ? may('create') && may('update') : may(o),
  );
  if (operations.length === 0) return undefined;
  const words = ROUTE_DOCS[IMPORT_ROUTES.start.name];
  const columns = columnsOf(metaOf(def.plural) ?? new CollectionMeta(def), metaOf, access);
  const responses: Schema = {
    200: job('The finished job (under Prefer: wait, when it finished in time)'),
    202: job(words.answers),
  };
  for (const status of [...words.errors, 403, 414, 503])
    responses[status] = {
      description: importErrors(limits)[status] ?? ERROR_DESCRIPTIONS[status],
      content: { 'application/json': { schema: errorRef } },
    };
  return {
    operationId: fill(words.operationId, def),
    summary: fill(words.summary, def),
    ...(def.hooks?.beforeCreate
      ? { description: `The service makes part of each ${def.singular} on create: its import is refused (400).` }
      : {}),
    parameters: [...IMPORT_ROUTES.start.params.map((p) => importParameter(p, operations)), ...HEADERS],
    requestBody: {
      required: true,
      content: {
        'text/csv': {
          schema: { type: 'string', description: bodyDescription(def, columns) },
          example: `${columns.header.join(',')}\r\n`,
        },
        'application/x-ndjson': {
          schema: {
            type: 'string',
            description: `One JSON object per line, each shaped as a create body of ${def.plural} (schema ${def.pascal}).`,
          },
        },
      },
    },
    responses,
    security: [{ bearer: [] }],
    tags: [def.plural],
    'x-order': order,
  };
}
