import { isDeepStrictEqual } from 'node:util';
import type { CollectionMeta } from './collection-meta';
import type { ApiRecord } from './record';

export type RecordAction = 'created' | 'updated' | 'deleted' | 'destroyed' | 'restored';

/** One record event `<singular>.<action>` (API.md section 9). */
export interface RecordEvent {
  name: string;
  action: RecordAction;
  meta: CollectionMeta;
  recordId: string;
  before?: ApiRecord;
  after?: ApiRecord;
  /** Changed fields with their values before and after (updates). */
  diff?: Record<string, { before: unknown; after: unknown }>;
  updatedFields?: string[];
}

const REDACTED = '[redacted]';

/** Event copies of a record never carry secrets: encrypted fields are masked (write-only ones are absent). */
function redact(meta: CollectionMeta, record: ApiRecord | undefined): ApiRecord | undefined {
  if (!record || !meta.hasSecrets) return record;
  const copy = { ...record };
  for (const field of meta.fields) if (field.encrypted && copy[field.name] !== undefined) copy[field.name] = REDACTED;
  return copy;
}

/** Builds the event of one write from the record before and after it (depth 0 records). */
export function recordEvent(
  meta: CollectionMeta,
  action: RecordAction,
  before?: ApiRecord,
  after?: ApiRecord,
): RecordEvent {
  const event: RecordEvent = {
    name: `${meta.def.singular}.${action}`,
    action,
    meta,
    recordId: String((after ?? before)!.id),
    before: redact(meta, before),
    after: redact(meta, after),
  };
  if (action === 'updated' && event.before && event.after) {
    const diff: RecordEvent['diff'] = {};
    for (const [key, value] of Object.entries(event.after)) {
      if (key !== 'updatedAt' && !isDeepStrictEqual(value, event.before[key]))
        diff[key] = { before: event.before[key], after: value };
    }
    event.diff = diff;
    event.updatedFields = Object.keys(diff);
  }
  return event;
}
