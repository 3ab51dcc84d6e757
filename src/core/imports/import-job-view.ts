import type { ImportJobRow } from '../repository/import-job-row';

/** A job as the API shows it (API.md section 17). */
export interface ImportJob {
  id: string;
  collection: string;
  operation: string;
  atomic: boolean;
  dryRun: boolean;
  state: string;
  rows: ImportJobRow['counts'];
  bytes: number;
  createdAt: unknown;
  startedAt: unknown;
  finishedAt: unknown;
  apiKeyId: string | null;
  message?: string;
}

export function jobView(row: ImportJobRow): ImportJob {
  const job: ImportJob = {
    id: row.id,
    collection: row.collection,
    operation: row.operation,
    atomic: row.options.atomic === true,
    dryRun: row.options.dryRun === true,
    state: row.state,
    rows: row.counts,
    bytes: Number(row.bytes),
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
    apiKeyId: row.apiKeyId,
  };
  if (row.message) job.message = row.message;
  return job;
}

export const FINISHED = new Set(['completed', 'failed', 'cancelled']);
