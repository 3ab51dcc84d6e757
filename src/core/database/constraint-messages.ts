import { CollectionCatalog } from '../model/collection-catalog';
import { ConstraintViolation } from './db-errors';

/** A constraint violation as a client-facing message naming the field (never the SQL). */
export function constraintMessage(violation: ConstraintViolation, catalog: CollectionCatalog): string {
  const meta = violation.table ? catalog.byTableName(violation.table) : undefined;
  if (violation.columns) {
    // a unique index over several columns (viewFields: fieldMetadataId and viewId)
    const paths = violation.columns.map((c) => meta?.pathOfColumn(c) ?? c).join(' and ');
    return `A duplicate entry was detected: ${paths} (${violation.value ?? ''}) are already used together by another record`;
  }
  const path = (violation.column && meta?.pathOfColumn(violation.column)) ?? violation.column ?? 'a field';
  const value = violation.value !== undefined ? ` '${violation.value}'` : '';
  switch (violation.kind) {
    case 'unique':
      return path === 'id'
        ? 'A duplicate entry was detected'
        : `A duplicate entry was detected: ${path}${value} is already used by another record`;
    case 'foreign-key':
      return `${path}${value} does not match an existing record`;
    case 'not-null':
      return `${path} must not be null`;
    default:
      return `${path}${value} is not allowed`;
  }
}
