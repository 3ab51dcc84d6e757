import { q } from '../database/sql';
import { StorageColumn } from '../fields/storage-columns';
import { CollectionMeta, COMMON_FIELDS } from '../model/collection-meta';
import { recordJsonSql } from './record-json';

/**
 * The SQL names of one collection's table, computed once from its metadata and shared by its
 * statement owners (reads, writes, locks): the table, the columns a record is read from, the
 * event copy of a row, the types of typed record sets.
 */
export class TableSql {
  /** The quoted table name. */
  readonly name: string;
  /** `"id", "createdAt", ... , "statuses"::text[] AS "statuses"`: every readable column. */
  readonly selectList: string;
  /** The same columns of the table aliased `t` (`t."id", ...`), for UPDATE ... FROM. */
  readonly selectListOfT: string;
  /** `"id", "createdAt", ...`: the names of the columns `selectList` yields (to select them again from a CTE). */
  readonly columnNames: string;
  /** The same names, unquoted. */
  readonly readColumns: string[];

  constructor(readonly meta: CollectionMeta) {
    this.name = q(meta.table);
    const readable = (col: StorageColumn) =>
      // enum arrays come back as untyped literals; cast to text[] so the driver parses them
      col.type === 'MULTI_SELECT' ? `${q(col.column)}::text[] AS ${q(col.column)}` : q(col.column);
    this.selectList = [...COMMON_FIELDS.map(q), ...meta.columns.filter((c) => !c.field.writeOnly).map(readable)].join(
      ', ',
    );
    this.selectListOfT = this.selectList.replace(/(^|, )"/g, '$1t."');
    this.readColumns = [...COMMON_FIELDS, ...meta.columns.filter((c) => !c.field.writeOnly).map((c) => c.column)];
    this.columnNames = this.readColumns.map(q).join(', ');
  }

  /** The event copies by alias: the aliases are the statement owners' few constants. */
  private readonly jsonOf = new Map<string, string>();

  /**
   * The event copy (JSON, depth 0) of a row `alias` of this table or of a CTE of its columns.
   * Built once per alias: every write statement holds one or two (~4 kB of SQL for a person).
   */
  recordJson(alias: string): string {
    let json = this.jsonOf.get(alias);
    if (json === undefined) this.jsonOf.set(alias, (json = recordJsonSql(this.meta, alias)));
    return json;
  }

  /** The fields stored in some of `columns` (the only fields a write of those columns can change), in declaration order. */
  fieldsOf(columns: string[]): string[] {
    const assigned = new Set(columns);
    return this.meta.fields
      .filter((f) => this.meta.columnsByField.get(f.name)!.some((c) => assigned.has(c.column)))
      .map((f) => f.name);
  }

  /** The SQL type of a stored column, for typed record sets (`jsonb_to_recordset`). */
  sqlType(column: string): string {
    if (column === 'id') return 'uuid';
    if ((COMMON_FIELDS as readonly string[]).includes(column)) return 'timestamp with time zone';
    const stored = this.meta.columns.find((c) => c.column === column);
    if (!stored) throw new Error(`${this.meta.plural} has no column ${column}`);
    if (stored.pgType === 'enum')
      return q(`${this.meta.table}_${column.toLowerCase()}_enum`) + (stored.type === 'MULTI_SELECT' ? '[]' : '');
    return stored.pgType + (stored.type === 'ARRAY' ? '[]' : '');
  }
}
