import type { CollectionRoute } from '../routes/route-types';
import { IMPORT_ROUTES } from '../routes/service-routes';

/** The words of each collection route's OpenAPI operation, with `{plural}`, `{singular}`, `{Pascal}`, `{PascalPlural}`. */
export interface RouteDocs {
  operationId: string;
  summary: string;
  /** Description of the success answer. */
  answers: string;
  /** Error statuses documented besides 403, 414 and 503 (every route's). */
  errors: readonly number[];
}

const WRITE_ERRORS = [400, 401, 413, 415, 429];

export const ROUTE_DOCS: Record<CollectionRoute['name'], RouteDocs> = {
  findMany: {
    operationId: 'findMany{PascalPlural}',
    summary: 'List {plural} (filter, sort, keyset pagination)',
    answers: 'A page of records',
    errors: [400, 401, 429],
  },
  exportRecords: {
    operationId: 'export{PascalPlural}',
    summary: 'Export every {singular} the filter matches (NDJSON or CSV, streamed, one snapshot)',
    answers: 'The records at depth 0, streamed as an attachment',
    errors: [400, 401, 429],
  },
  // the import of a collection (a route of IMPORT_ROUTES, documented per collection: import-operation.ts)
  [IMPORT_ROUTES.start.name]: {
    operationId: 'import{PascalPlural}',
    summary: 'Import {plural} from a CSV or NDJSON file: a job in the background (create, upsert or update; dry run)',
    answers: 'The file is stored and its job queued (or still running after Prefer: wait); follow Location',
    errors: [400, 401, 413, 415, 422, 429],
  },
  createOne: {
    operationId: 'createOne{Pascal}',
    summary: 'Create (or upsert) one {singular}',
    answers: 'The created record',
    errors: [400, 401, 413, 415, 422, 429],
  },
  createMany: {
    operationId: 'createMany{PascalPlural}',
    summary: 'Create (or upsert) many {plural} (atomic)',
    answers: 'The created records, in input order',
    errors: [400, 401, 413, 415, 422, 429],
  },
  findOne: {
    operationId: 'findOne{Pascal}',
    summary: 'Get one {singular}',
    answers: 'The record',
    errors: [400, 401, 404, 429],
  },
  updateOne: {
    operationId: 'updateOne{Pascal}',
    summary: 'Update one {singular} (partial)',
    answers: 'The updated record',
    errors: [400, 401, 404, 412, 413, 415, 429],
  },
  deleteOne: {
    operationId: 'deleteOne{Pascal}',
    summary: 'Delete one {singular} (hard, or soft with soft_delete=true)',
    answers: 'Hard delete: the id; soft delete: the whole record',
    errors: [400, 401, 404, 412, 429],
  },
  findDuplicates: {
    operationId: 'find{Pascal}Duplicates',
    summary: 'Find duplicates of {plural}',
    answers: 'One result per input record (per found id in ids mode)',
    errors: WRITE_ERRORS,
  },
  updateMany: {
    operationId: 'updateMany{PascalPlural}',
    summary: 'Update every {singular} the filter matches (partial, atomic)',
    answers: 'The updated records, by id',
    errors: WRITE_ERRORS,
  },
  deleteMany: {
    operationId: 'deleteMany{PascalPlural}',
    summary: 'Delete every {singular} the filter matches (atomic; soft with soft_delete=true)',
    answers: 'Hard delete: [{id}] by id; soft delete: the records',
    errors: [400, 401, 429],
  },
  restoreMany: {
    operationId: 'restoreMany{PascalPlural}',
    summary: 'Restore every soft-deleted {singular} the filter matches',
    answers: 'The restored records, by id',
    errors: [400, 401, 429],
  },
  restoreOne: {
    operationId: 'restoreOne{Pascal}',
    summary: 'Restore one soft-deleted {singular}',
    answers: 'The restored record',
    errors: [400, 401, 404, 429],
  },
  groupBy: {
    operationId: 'groupBy{PascalPlural}',
    summary: 'Group {plural} and aggregate (one SQL GROUP BY)',
    answers: 'One element per group',
    errors: [400, 401, 429],
  },
  merge: {
    operationId: 'merge{PascalPlural}',
    summary: 'Merge 2 to 9 {plural} into one',
    answers: 'The surviving record',
    errors: [400, 401, 404, 413, 415, 429],
  },
  updateOneAlias: {
    operationId: 'updateOne{Pascal}Put',
    summary: 'Update one {singular} (PUT, an alias of PATCH)',
    answers: 'The updated record',
    errors: [400, 401, 404, 412, 413, 415, 429],
  },
  updateManyAlias: {
    operationId: 'updateMany{PascalPlural}Put',
    summary: 'Update every {singular} the filter matches (PUT, an alias of PATCH)',
    answers: 'The updated records, by id',
    errors: WRITE_ERRORS,
  },
  restoreOneAlias: {
    operationId: 'restoreOne{Pascal}Alias',
    summary: 'Restore one soft-deleted {singular} (an alias of PATCH /{plural}/{id}/restore)',
    answers: 'The record',
    errors: [400, 401, 404, 429],
  },
  restoreManyAlias: {
    operationId: 'restoreMany{PascalPlural}Alias',
    summary: 'Restore every soft-deleted {singular} the filter matches (an alias of PATCH /{plural}/restore)',
    answers: 'The restored records, by id',
    errors: [400, 401, 429],
  },
  downloadFile: {
    operationId: 'download{Pascal}File',
    summary: "Download the file of one {singular} (ranges; with a key, or a signed link's expires and signature)",
    answers: 'The file',
    errors: [400, 401, 404, 429],
  },
  createFileLink: {
    operationId: 'create{Pascal}FileLink',
    summary: 'A signed link that downloads the file of one {singular} without a key until it expires',
    answers: 'The link and its expiry',
    errors: [400, 401, 404, 429],
  },
};
