import { BadRequestException } from '@nestjs/common';
import { constraintMessage } from '../database/constraint-messages';
import { constraintViolation, PgError } from '../database/db-errors';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';

/**
 * Names the records of a multi-record write that a constraint violation concerns
 * (`[3] emails.primaryEmail ...`); the error itself when it cannot tell.
 */
export function explainBatchError(
  catalog: CollectionCatalog,
  meta: CollectionMeta,
  error: unknown,
  inputs: Row[],
): unknown {
  const violation = constraintViolation(error as PgError);
  const path = violation?.column ? meta.pathOfColumn(violation.column) : undefined;
  if (!violation || violation.value === undefined || !path) return error;
  const [name, sub] = path.split('.');
  const indexes = inputs
    .map((input, i) => {
      const value = sub ? (input[name] as Row | undefined)?.[sub] : input[name];
      return String(value) === violation.value ? i : -1;
    })
    .filter((i) => i >= 0);
  if (indexes.length === 0) return error;
  const message = constraintMessage(violation, catalog);
  return new BadRequestException(indexes.map((i) => `[${i}] ${message}`));
}
