import { recordEntityOptions } from '../database/record-entity';
import { DeclaredField } from '../fields/define-field';
import { getFieldDefinitions, OnDeleteAction } from '../fields/field-definition';
import { StorageColumn, storageColumnsOf } from '../fields/storage-columns';
import { QueryError } from '../query/query-error';
import { ColumnRef, QueryTarget } from '../query/query-target';
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
}

/** Quotes an identifier that comes from metadata (never from a request). */
export function q(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

export const COMMON_FIELDS = ['id', 'createdAt', 'updatedAt', 'deletedAt'] as const;

/**
 * Everything about one collection that request handling needs, computed once at start-up:
 * fields, storage columns, relations and SQL fragments. Nothing here is recomputed per request.
 */
export class CollectionMeta implements QueryTarget {
  readonly table: string;
  readonly sqlTable: string;
  readonly fields: DeclaredField[];
  readonly fieldByName: Map<string, DeclaredField>;
  readonly columns: StorageColumn[];
  readonly columnsByField: Map<string, StorageColumn[]>;
  readonly manyToOne: RelationMeta[] = [];
  readonly oneToMany: RelationMeta[] = [];
  /** `"id", "createdAt", ... , "statuses"::text[] AS "statuses"`: every readable column. */
  readonly selectList: string;
  /** Whether records have a `position`, the order of their ONE_TO_MANY lists. */
  readonly hasPosition: boolean;
  /** Encrypted and write-only fields need per-row work; others are copied. */
  readonly hasSecrets: boolean;
  /** Every filterable / sortable path (`city`, `name.firstName`, `createdAt`) and its column. */
  private readonly paths = new Map<string, ColumnRef>();

  constructor(readonly def: CollectionDefinition) {
    this.table = recordEntityOptions(def.entity).table;
    this.sqlTable = q(this.table);
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
    const readable = (col: StorageColumn) =>
      // enum arrays come back as untyped literals; cast to text[] so the driver parses them
      col.type === 'MULTI_SELECT' ? `${q(col.column)}::text[] AS ${q(col.column)}` : q(col.column);
    this.selectList = [
      ...COMMON_FIELDS.map(q),
      ...this.columns.filter((c) => !c.field.writeOnly).map(readable),
    ].join(', ');
    this.hasPosition = this.fieldByName.has('position');
    this.hasSecrets = this.fields.some((f) => f.encrypted || f.writeOnly);
    this.paths.set('id', { path: 'id', column: 'id', type: 'UUID', nullable: false });
    for (const name of ['createdAt', 'updatedAt', 'deletedAt']) {
      this.paths.set(name, { path: name, column: name, type: 'DATE_TIME', nullable: name === 'deletedAt' });
    }
    for (const col of this.columns) {
      // secrets are neither filterable nor sortable: no probing of write-only or encrypted values
      if (col.field.writeOnly || col.field.encrypted) continue;
      const path = col.sub ? `${col.field.name}.${col.sub.name}` : col.field.name;
      this.paths.set(path, { path, column: col.column, type: col.type as ColumnRef['type'], options: col.options, nullable: col.nullable });
    }
  }

  get objectName(): string {
    return this.def.singular;
  }

  /** Resolves `field` or `composite.subField` to its column (QueryTarget). */
  resolve(path: string[]): ColumnRef {
    const ref = this.paths.get(path.join('.'));
    if (ref) return ref;
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

  get plural(): string {
    return this.def.plural;
  }

  /** API path of a stored column (`nameFirstName` -> `name.firstName`), for error messages. */
  pathOfColumn(column: string): string | undefined {
    if ((COMMON_FIELDS as readonly string[]).includes(column)) return column;
    const stored = this.columns.find((c) => c.column === column);
    if (!stored) return undefined;
    return stored.sub ? `${stored.field.name}.${stored.sub.name}` : stored.field.name;
  }

}

/**
 * All collections by plural name, with their relations resolved in both directions
 * (every MANY_TO_ONE join column yields the ONE_TO_MANY array on its target).
 */
export class CollectionCatalog {
  private readonly byPlural = new Map<string, CollectionMeta>();
  private readonly byTable = new Map<string, CollectionMeta>();
  private readonly pluralBySingular = new Map<string, string>();

  constructor(definitions: CollectionDefinition[]) {
    for (const def of definitions) {
      const meta = new CollectionMeta(def);
      this.byPlural.set(def.plural, meta);
      this.byTable.set(meta.table, meta);
      this.pluralBySingular.set(def.singular, def.plural);
    }
    for (const meta of this.byPlural.values()) {
      for (const rel of meta.manyToOne) {
        const target = this.byPlural.get(rel.target);
        if (!target) throw new Error(`${meta.plural}.${rel.joinColumn} points at unknown collection '${rel.target}'`);
        const field = meta.fieldByName.get(rel.joinColumn)!;
        target.oneToMany.push({
          name: field.relation!.inverse,
          kind: 'ONE_TO_MANY',
          target: meta.plural,
          joinColumn: rel.joinColumn,
          onDelete: rel.onDelete,
        });
      }
    }
  }

  get(plural: string): CollectionMeta | undefined {
    return this.byPlural.get(plural);
  }

  require(plural: string): CollectionMeta {
    const meta = this.byPlural.get(plural);
    if (!meta) throw new Error(`Unknown collection ${plural}`);
    return meta;
  }

  /** The collection stored in a table (to name fields in database error messages). */
  byTableName(table: string): CollectionMeta | undefined {
    return this.byTable.get(table);
  }

  /** The plural name a singular belongs to (`company` -> `companies`). */
  pluralOf(singular: string): string | undefined {
    return this.pluralBySingular.get(singular);
  }

  all(): CollectionMeta[] {
    return [...this.byPlural.values()];
  }
}
