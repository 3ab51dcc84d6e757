import type { Type } from '@nestjs/common';
/** How a collection's table is declared: read by the model (table name) and by the entity decorator. */

/**
 * An extra index of a collection (collections.json `indexes`). A plain one-column index (not
 * unique, no `where`) is a sort index: see `declareSortIndexes` in database/record-entity.ts.
 */
export interface IndexSpec {
  columns: string[];
  unique?: boolean;
  where?: string;
}

export interface RecordEntityOptions {
  /** Table name (the singular name, as Twenty names its tables). */
  table: string;
  /** The create DTO: the one declaration of the collection's writable fields. */
  fields: Type;
  /** Field paths concatenated into the generated `searchVector` tsvector column. */
  searchVector?: string[];
  indexes?: IndexSpec[];
}

export const RECORD_ENTITY_KEY = Symbol('crm:record-entity');

export function recordEntityOptions(entity: Type): RecordEntityOptions {
  const options = Reflect.getOwnMetadata(RECORD_ENTITY_KEY, entity);
  if (!options) throw new Error(`${entity.name} is not decorated with @RecordEntity`);
  return options;
}
