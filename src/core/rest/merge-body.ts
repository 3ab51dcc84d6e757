import { isPlainObject, isUuid } from '../fields/field-rules';
import { MergeInput } from '../records/record-merges';
import { badRequest } from '../validation/record-body';

/** `{"ids":[2..9 distinct UUIDs],"conflictPriorityIndex":0,"dryRun":false}` (API.md section 11). */
export function parseMergeBody(body: unknown): MergeInput {
  if (!isPlainObject(body)) throw badRequest(['Body must be a JSON object']);
  const messages = Object.keys(body)
    .filter((k) => k !== 'ids' && k !== 'conflictPriorityIndex' && k !== 'dryRun')
    .map((k) => `property ${k} should not exist`);
  const {
    ids,
    conflictPriorityIndex = 0,
    dryRun = false,
  } = body as { ids?: unknown; conflictPriorityIndex?: unknown; dryRun?: unknown };
  if (!Array.isArray(ids) || ids.length < 2 || ids.length > 9) {
    messages.push('ids must be an array of 2 to 9 record ids');
  } else {
    ids.forEach((id, i) => isUuid(id) || messages.push(`[${i}] '${String(id)}' is not a valid UUID`));
    const lower = ids.map((id) => String(id).toLowerCase());
    if (new Set(lower).size !== lower.length) messages.push('ids must be distinct');
  }
  const count = Array.isArray(ids) ? ids.length : 0;
  if (
    !Number.isInteger(conflictPriorityIndex) ||
    (conflictPriorityIndex as number) < 0 ||
    (count > 0 && (conflictPriorityIndex as number) >= count)
  ) {
    messages.push(`conflictPriorityIndex must be an integer from 0 to ${Math.max(count - 1, 0)}`);
  }
  if (typeof dryRun !== 'boolean') messages.push('dryRun must be a boolean');
  if (messages.length) throw badRequest(messages);
  return {
    ids: (ids as string[]).map((id) => id.toLowerCase()),
    conflictPriorityIndex: conflictPriorityIndex as number,
    dryRun: dryRun as boolean,
  };
}
