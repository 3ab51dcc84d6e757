import { toIsoTimestamp } from './record-codec';

/** The rows of `_imports` as the import statements read and write them (import-statements.ts). */

export const COUNTERS = ['read', 'created', 'updated', 'unchanged', 'failed', 'unprocessed'] as const;

/** The counters of a job (API.md section 17). */
export type ImportCounts = Record<(typeof COUNTERS)[number], number>;

/** A stored job: the columns of `_imports`. */
export interface ImportJobRow {
  id: string;
  collection: string;
  operation: string;
  format: string;
  options: Record<string, unknown>;
  state: string;
  bytes: number;
  objectKey: string | null;
  apiKeyId: string | null;
  message: string | null;
  resumeLine: number;
  cancelRequested: boolean;
  /** The token of the current hold on a running job (set by `claim`). */
  claim: string | null;
  idempotencyKey: string | null;
  fingerprint: string | null;
  /** The W3C traceparent of the request that queued it (tracing on), continued by its runs. */
  traceParent: string | null;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
  counts: ImportCounts;
}

/** What a new job is made of (the rest has its defaults). */
export const NEW_JOB = [
  'id',
  'collection',
  'operation',
  'format',
  'options',
  'bytes',
  'objectKey',
  'apiKeyId',
  'idempotencyKey',
  'fingerprint',
  'traceParent',
] as const;
export type NewImportJob = Pick<ImportJobRow, (typeof NEW_JOB)[number]>;

export const COLUMNS =
  '"id", "collection", "operation", "format", "options", "state", "bytes"::float8 AS "bytes", "objectKey", "apiKeyId", ' +
  '"message", "resumeLine", "cancelRequested", "claim", "idempotencyKey", "fingerprint", "traceParent", "createdAt", "startedAt", "finishedAt", ' +
  COUNTERS.map((c) => `"${c}"`).join(', ');

export function job(row: Record<string, unknown>): ImportJobRow {
  const counts = Object.fromEntries(COUNTERS.map((c) => [c, Number(row[c])])) as unknown as ImportCounts;
  for (const c of COUNTERS) delete row[c];
  return {
    ...(row as unknown as ImportJobRow),
    createdAt: toIsoTimestamp(row.createdAt),
    startedAt: toIsoTimestamp(row.startedAt),
    finishedAt: toIsoTimestamp(row.finishedAt),
    counts,
  };
}

/** The job was taken over by another instance (this one's lease lapsed): it must stop and write nothing more. */
export class LostClaim extends Error {
  constructor(id: string) {
    super(`import ${id} is held by another instance now`);
  }
}
