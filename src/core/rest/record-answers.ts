import type { SetHeader } from '../http/response-headers.decorator';
import type { CollectionDefinition } from '../model/collection-definition';
import type { DuplicatesResult } from '../records/record-duplicates';
import type { ListResult } from '../records/record-reads';

/**
 * The envelopes of the collection routes that answer one record with its version, a page of a
 * list, and find duplicates: the shapes API.md sections 3-5 give, named by the route table's answer keys.
 */

/** `{ data: { <answerKey>: record } }`, the record's version in `ETag` when it has one. */
export function recordAnswer(answerKey: string, record: object, etag: string | undefined, header: SetHeader) {
  if (etag) header('ETag', etag);
  return { data: { [answerKey]: record } };
}

/** A page of a list (section 4); `totalCountEstimated` beside `totalCount` only under `Prefer: count=estimated` (section 18). */
export function pageAnswer(plural: string, { records, pageInfo, count }: ListResult) {
  const answer = { data: { [plural]: records }, pageInfo, totalCount: count.totalCount };
  return count.estimated === undefined ? answer : { ...answer, totalCountEstimated: count.estimated };
}

/**
 * One entry per input of find duplicates. Twenty's published examples name the list
 * companyDuplicates for every collection; the collection's own name is given too. Built field by
 * field: a rest/spread copy gave every answer object a hidden class of its own.
 */
export function duplicatesAnswer(def: CollectionDefinition, results: DuplicatesResult[]) {
  return {
    data: results.map(({ totalCount, pageInfo, records }) => ({
      totalCount,
      pageInfo,
      companyDuplicates: records,
      [`${def.singular}Duplicates`]: records,
    })),
  };
}
