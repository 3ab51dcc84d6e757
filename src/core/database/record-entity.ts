import type { Type } from '@nestjs/common';
import { Column, ColumnOptions, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { FieldDefinition, getFieldDefinitions, isComposite } from '../fields/field-definition';
import { isArrayColumn, StorageColumn, storageColumnsOf } from '../fields/storage-columns';
import type { CollectionDefinition } from '../model/collection-definition';
import { RECORD_ENTITY_KEY, RecordEntityOptions, recordEntityOptions } from '../model/record-entity-options';
import { SEARCH_ACCENTS } from '../model/search-text';

/**
 * Resolves a collection's entity class by plural name for TypeORM's relation metadata, which it
 * reads lazily when a DataSource is built: bound by `bindCollectionEntities`, which the one
 * DataSource definition calls with the collection list.
 */
let resolveEntity: (plural: string) => Type = (plural) => {
  throw new Error(`Relation to '${plural}' read before bindCollectionEntities() was given the collections`);
};
const bound = new WeakSet<Type>();

const ON_DELETE = { CASCADE: 'CASCADE', SET_NULL: 'SET NULL', RESTRICT: 'RESTRICT' } as const;

/**
 * Completes the entities of a collection list (explicitly, when the DataSource is defined):
 * relation targets resolve within the list, and the duplicate-criteria indexes are declared
 * (once per entity, however many DataSources a process builds).
 */
export function bindCollectionEntities(collections: readonly CollectionDefinition[]): Type[] {
  const byPlural = new Map(collections.map((def) => [def.plural, def.entity]));
  resolveEntity = (plural) => {
    const entity = byPlural.get(plural);
    if (!entity) throw new Error(`Relation to unknown collection '${plural}'`);
    return entity;
  };
  for (const def of collections) {
    if (bound.has(def.entity)) continue;
    bound.add(def.entity);
    declareDuplicateIndexes(def.entity, def.duplicateCriteria);
  }
  return collections.map((def) => def.entity);
}

/**
 * The column default in the form TypeORM compares without false differences: plain values for
 * text, numbers, booleans and enums; SQL expressions for JSON, arrays and now().
 */
function columnDefault(col: StorageColumn): Pick<ColumnOptions, 'default'> {
  const { defaultValue, sqlDefault } = col;
  if (sqlDefault === undefined) return {};
  if (
    typeof defaultValue === 'number' ||
    typeof defaultValue === 'boolean' ||
    (typeof defaultValue === 'string' && defaultValue !== 'now()')
  ) {
    return { default: defaultValue };
  }
  return { default: () => sqlDefault };
}

function columnOptions(col: StorageColumn): ColumnOptions {
  return {
    name: col.column,
    type: col.pgType as ColumnOptions['type'],
    nullable: col.nullable,
    // enum types keep TypeORM's own names (<table>_<lowercased column>_enum): an explicit name
    // equal to that default makes TypeORM diff the column forever
    ...(col.pgType === 'enum' ? { enum: [...col.options!] } : {}),
    ...(isArrayColumn(col) ? { array: true } : {}),
    ...columnDefault(col),
  };
}

/**
 * SQL expression of a tsvector over text columns, immutable so it can be a generated column:
 * the 'simple' configuration (lower-cased words, no stemming) over the text without its accents
 * (`translate` with SEARCH_ACCENTS: built in, so the same on PostgreSQL and PGlite, where the
 * unaccent extension is not guaranteed). Search terms are normalised the same way.
 */
function searchVectorExpression(paths: string[], fields: Type): string {
  const columns = getFieldDefinitions(fields).flatMap((f) => storageColumnsOf(f));
  const parts = paths.map((path) => {
    const column = path.replace(/\.(\w)/, (_, c: string) => c.toUpperCase());
    if (!columns.some((c) => c.column === column)) throw new Error(`searchVector: unknown field ${path}`);
    return `COALESCE("${column}", '')`;
  });
  return `to_tsvector('simple'::regconfig, translate(${parts.join(` || ' ' || `)}, '${SEARCH_ACCENTS.from}', '${SEARCH_ACCENTS.to}'))`;
}

/** Name of the expression index serving one duplicate criterion (created by a hand-written migration). */
export function duplicateIndexName(table: string, criterion: number): string {
  return `IDX_${table}_duplicates_${criterion}`;
}

/**
 * Declares, without letting TypeORM manage them, the `lower(...)` expression indexes that serve
 * the duplicate criteria (TypeORM cannot express them; declaring keeps its diffs clean).
 */
function declareDuplicateIndexes(entity: Type, criteria: string[][]): void {
  const { table } = recordEntityOptions(entity);
  criteria.forEach((_, i) => Index(duplicateIndexName(table, i), { synchronize: false })(entity));
}

/** Name of the partial (column, id) index of a column indexed for filtering (FieldDefinition.indexed). */
export function filterIndexName(table: string, column: string): string {
  return `IDX_${table}_${column}_live`;
}

/** The stored columns a field's `indexed` option names: its column, or the named sub-fields' columns. */
export function indexedColumns(field: FieldDefinition): string[] {
  const columns = storageColumnsOf(field);
  const { indexed } = field;
  if (!indexed) return [];
  if (indexed === true && !isComposite(field.type)) return [columns[0].column];
  const named = indexed === true ? [] : columns.filter((c) => c.sub && indexed.includes(c.sub.name));
  if (indexed === true || named.length !== indexed.length)
    throw new Error(
      `${field.name}: indexed names the sub-fields of a composite to index, among ${columns.map((c) => c.sub!.name).join(', ')}`,
    );
  return named.map((c) => c.column);
}

/** Name of the (column NULLS FIRST, id) index of a nullable sort column (created by a hand-written migration). */
export function nullsFirstSortIndexName(table: string, column: string): string {
  return `IDX_${table}_${column}_nulls_first`;
}

/**
 * Keyset sort indexes of one column: (column, id), which serves ASC NULLS LAST and, scanned
 * backward, DESC NULLS FIRST (on a NOT NULL column, every direction: the compiler writes no
 * NULLS clause there). A nullable column also gets (column NULLS FIRST, id) for ASC NULLS FIRST
 * and DESC NULLS LAST; TypeORM cannot express it, so it is declared unmanaged like the
 * duplicate indexes. `id` follows the key's direction in every sort by one key (resolveSort).
 */
function declareSortIndexes(target: Type, table: string, column: string, nullable: boolean): void {
  Index([column, 'id'])(target);
  if (nullable) Index(nullsFirstSortIndexName(table, column), { synchronize: false })(target);
}

/**
 * Derives a TypeORM entity from a collection's field declarations: the common columns,
 * one column per stored value, a foreign key and a (join column, deletedAt) index per join column, the search vector
 * (generated, GIN-indexed) and the declared extra indexes. The entity serves migrations and
 * the metadata whitelist; records are read and written by the CRUD service in SQL.
 */
export function RecordEntity(options: RecordEntityOptions): ClassDecorator {
  return ((target: Type) => {
    Reflect.defineMetadata(RECORD_ENTITY_KEY, options, target);
    const proto = target.prototype;
    PrimaryGeneratedColumn('uuid')(proto, 'id');
    Column({ type: 'timestamp with time zone', default: () => 'now()' })(proto, 'createdAt');
    Column({ type: 'timestamp with time zone', default: () => 'now()' })(proto, 'updatedAt');
    Column({ type: 'timestamp with time zone', nullable: true })(proto, 'deletedAt');
    // keyset order (sort key, id) for the common sorts
    declareSortIndexes(target, options.table, 'createdAt', false);

    const fields = getFieldDefinitions(options.fields);
    const nullable = new Map(fields.flatMap((f) => storageColumnsOf(f)).map((c) => [c.column, c.nullable]));
    if (nullable.has('position')) declareSortIndexes(target, options.table, 'position', nullable.get('position')!);
    for (const field of fields) {
      for (const col of storageColumnsOf(field)) {
        Column(columnOptions(col))(proto, col.column);
      }
      if (field.unique) {
        // Unique among live records with a value: soft-deleted rows and empty defaults never collide.
        const column = storageColumnsOf(field)[0].column;
        Index([column], { unique: true, where: `"deletedAt" IS NULL AND "${column}" <> ''` })(target);
      }
      for (const column of indexedColumns(field))
        Index(filterIndexName(options.table, column), [column, 'id'], { where: '"deletedAt" IS NULL' })(target);
      const relation = field.relation;
      if (relation) {
        ManyToOne(() => resolveEntity(relation.target), {
          onDelete: ON_DELETE[relation.onDelete],
          nullable: true,
          createForeignKeyConstraints: true,
        })(proto, relation.name);
        JoinColumn({ name: field.name })(proto, relation.name);
        // (join column, deletedAt): the lookups by join column, and the live rows of a relation
        // path (`company.employees[gt]:N` counts people through EXISTS) read from the index
        // alone (index-only scan, `deletedAt IS NULL` an index condition) instead of the table
        Index([field.name, 'deletedAt'])(target);
      }
    }

    if (options.searchVector) {
      Column({
        type: 'tsvector',
        nullable: true,
        generatedType: 'STORED',
        asExpression: searchVectorExpression(options.searchVector, options.fields),
        insert: false,
        update: false,
        select: false,
      })(proto, 'searchVector');
      Index({ type: 'gin' })(proto, 'searchVector');
    }
    for (const index of options.indexes ?? []) {
      const [column, ...others] = index.columns;
      if (!others.length && !index.unique && !index.where)
        declareSortIndexes(target, options.table, column, nullable.get(column) ?? false);
      else Index(index.columns, { unique: index.unique, where: index.where })(target);
    }
    Entity(options.table)(target);
  }) as ClassDecorator;
}
