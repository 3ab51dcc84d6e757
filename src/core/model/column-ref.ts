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
  /**
   * For a path through relations (`company.employees`, `people.jobTitle`): the relations from
   * this collection to the column's table, in order. Absent for the collection's own columns.
   */
  hops?: RelationHop[];
}

/** One step of a relation path: the related table and how it joins the one before it. */
export interface RelationHop {
  /** `MANY_TO_ONE`: the join column is on the table before; `ONE_TO_MANY`: on the related table. */
  kind: 'MANY_TO_ONE' | 'ONE_TO_MANY';
  /** Plural name of the related collection (whose access a key needs to go through it). */
  plural: string;
  table: string;
  joinColumn: string;
}

/** What the query builder needs to know about a collection; implemented by CollectionMeta. */
export interface QueryTarget {
  /** Singular object name, as in `field 'foo' does not exist in 'person' object`. */
  readonly objectName: string;
  /** Plural name of the collection (access checks). */
  readonly plural: string;
  /** Its table (relation paths qualify the outer row with it). */
  readonly table: string;
  /** Resolves a field path to its column; throws QueryError for unknown or incomplete paths. */
  resolve(path: string[]): ColumnRef;
}
