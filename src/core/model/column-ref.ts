import type { ScalarFieldType } from '../fields/field-definition';

/** A filterable / sortable stored value, resolved from a field path such as `name.firstName`. */
export interface ColumnRef {
  /** API path, for messages: `name.firstName`. */
  path: string;
  /** Column name in the table (quoted by the builder). */
  column: string;
  /** Type of the stored value. */
  type: ScalarFieldType;
  options?: readonly string[];
  /** Whether the column can hold NULL (decides the NULL branches of keyset predicates). */
  nullable: boolean;
}

/** What the query builder needs to know about a collection; implemented by CollectionMeta. */
export interface QueryTarget {
  /** Singular object name, as in `field 'foo' does not exist in 'person' object`. */
  readonly objectName: string;
  /** Resolves a field path to its column; throws QueryError for unknown or incomplete paths. */
  resolve(path: string[]): ColumnRef;
}
