import { recordEntityOptions } from './record-entity-options';
import { DeclaredField } from '../fields/define-field';
import { getFieldDefinitions, OnDeleteAction } from '../fields/field-definition';
import { StorageColumn, storageColumnsOf } from '../fields/storage-columns';
import { QueryError } from '../errors/query-error';
import { ColumnRef, QueryTarget } from './column-ref';
import { CollectionDefinition } from './collection-definition';

export interface RelationMeta {
  /** Field name on this record: `company` (MANY_TO_ONE) or `people` (ONE_TO_MANY). */
  name: string;
  kind: 'MANY_TO_ONE' | 'ONE_TO_MANY';
  /** Plural of the related collection. */
  target: string;
  /** The join column: on this table for MANY_TO_ONE, on the target's table for ONE_TO_MANY. */
  joinColumn: string;
  onDelete: OnDeleteAction;
  /** The related collection (set by the catalog once every collection is known). */
  targetMeta?: CollectionMeta;
}

/** Relation paths in filters and sorts go through at most this many relations (API.md section 12). */
export const MAX_RELATION_HOPS = 2;

export const COMMON_FIELDS = ['id', 'createdAt', 'updatedAt', 'deletedAt'] as const;

/**
 * Everything about one collection that request handling needs, computed once at start-up:
 * fields, storage columns, relations and SQL fragments. Nothing here is recomputed per request.
 */
export class CollectionMeta implements QueryTarget {
  /** The table name (TypeORM entity), e.g. `person`. */
  readonly table: string;
  readonly fields: DeclaredField[];
  readonly fieldByName: Map<string, DeclaredField>;
  readonly columns: StorageColumn[];
  readonly columnsByField: Map<string, StorageColumn[]>;
  readonly manyToOne: RelationMeta[] = [];
  readonly oneToMany: RelationMeta[] = [];
  /** Whether records have a `position`, the order of their ONE_TO_MANY lists. */
  readonly hasPosition: boolean;
  /** Encrypted and write-only fields need per-row work; others are copied. */
  readonly hasSecrets: boolean;
  /** Whether the collection has a `searchVector` (GET /search covers it). */
  readonly searchable: boolean;
  /** The top-level fields its search vector is made of. */
  readonly searchFields: string[];
  /** Every filterable / sortable path (`city`, `name.firstName`, `createdAt`) and its column. */
  private readonly paths = new Map<string, ColumnRef>();

  constructor(readonly def: CollectionDefinition) {
    this.table = recordEntityOptions(def.entity).table;
    this.fields = getFieldDefinitions(def.create) as DeclaredField[];
    this.fieldByName = new Map(this.fields.map((f) => [f.name, f]));
    this.columnsByField = new Map(this.fields.map((f) => [f.name, storageColumnsOf(f)]));
    this.columns = [...this.columnsByField.values()].flat();
    for (const field of this.fields) {
      if (field.relation) {
        this.manyToOne.push({
          name: field.relation.name,
          kind: 'MANY_TO_ONE',
          target: field.relation.target,
          joinColumn: field.name,
          onDelete: field.relation.onDelete,
        });
      }
    }
    this.hasPosition = this.fieldByName.has('position');
    this.hasSecrets = this.fields.some((f) => f.encrypted || f.writeOnly);
    const searched = recordEntityOptions(def.entity).searchVector ?? [];
    this.searchable = searched.length > 0;
    this.searchFields = [...new Set(searched.map((path) => path.split('.')[0]))];
    this.paths.set('id', { path: 'id', column: 'id', type: 'UUID', nullable: false });
    for (const name of ['createdAt', 'updatedAt', 'deletedAt']) {
      this.paths.set(name, { path: name, column: name, type: 'DATE_TIME', nullable: name === 'deletedAt' });
    }
    for (const col of this.columns) {
      // secrets are neither filterable nor sortable: no probing of write-only or encrypted values
      if (col.field.writeOnly || col.field.encrypted) continue;
      const path = col.sub ? `${col.field.name}.${col.sub.name}` : col.field.name;
      this.paths.set(path, {
        path,
        column: col.column,
        type: col.type as ColumnRef['type'],
        options: col.options,
        nullable: col.nullable,
      });
    }
  }

  get objectName(): string {
    return this.def.singular;
  }

  /** Resolves `field` or `composite.subField` to its column (QueryTarget). */
  resolve(path: string[]): ColumnRef {
    const ref = this.paths.get(path.join('.'));
    if (ref) return ref;
    const relation =
      path.length > 1 ? [...this.manyToOne, ...this.oneToMany].find((r) => r.name === path[0]) : undefined;
    if (relation) return this.resolveThrough(relation, path);
    const [name, sub] = path;
    const field = this.fieldByName.get(name);
    if (field && !sub && this.columnsByField.get(name)!.length > 1) {
      const first = this.columnsByField.get(name)![0].sub!.name;
      throw new QueryError(`'${name}' is a composite field: name one of its sub-fields, e.g. ${name}.${first}`);
    }
    if (!sub && this.manyToOne.some((r) => r.name === name)) {
      throw new QueryError(`'${name}' is a relation: use its join column ${name}Id`);
    }
    throw new QueryError(`field '${path.join('.')}' does not exist in '${this.def.singular}' object`);
  }

  /** `company.employees`: the column of the related collection, with the hop that reaches it. */
  private resolveThrough(relation: RelationMeta, path: string[]): ColumnRef {
    let leaf: ColumnRef;
    try {
      leaf = relation.targetMeta!.resolve(path.slice(1));
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      throw new QueryError(
        `field '${path.join('.')}' does not exist in '${this.def.singular}' object (${error.message})`,
      );
    }
    const hops = [
      {
        kind: relation.kind,
        plural: relation.target,
        table: relation.targetMeta!.table,
        joinColumn: relation.joinColumn,
      },
      ...(leaf.hops ?? []),
    ];
    if (hops.length > MAX_RELATION_HOPS)
      throw new QueryError(`'${path.join('.')}' goes through more than ${MAX_RELATION_HOPS} relations`);
    return { ...leaf, path: path.join('.'), hops };
  }

  get plural(): string {
    return this.def.plural;
  }

  /** Every column a query may name (common fields, fields, composite sub-fields), by path. */
  columnRefs(): ColumnRef[] {
    return [...this.paths.values()];
  }

  /** API path of a stored column (`nameFirstName` -> `name.firstName`), for error messages. */
  pathOfColumn(column: string): string | undefined {
    if ((COMMON_FIELDS as readonly string[]).includes(column)) return column;
    const stored = this.columns.find((c) => c.column === column);
    if (!stored) return undefined;
    return stored.sub ? `${stored.field.name}.${stored.sub.name}` : stored.field.name;
  }
}
