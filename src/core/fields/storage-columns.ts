import { subFieldsOf } from './composite-fields';
import { DEFAULT_NOW, FieldDefinition, FieldType, isComposite } from './field-definition';

/**
 * How fields are stored: one column per scalar field and one per composite sub-field
 * (`name.firstName` -> `nameFirstName`), typed as in collections.json.
 */
export interface StorageColumn {
  /** Column name in the table (camelCase, always quoted in SQL). */
  column: string;
  /** The top-level field the column belongs to. */
  field: FieldDefinition;
  /** The composite sub-field, when the column stores one. */
  sub?: FieldDefinition;
  /** Type of the stored value (the sub-field's type for composites). */
  type: FieldType;
  /** PostgreSQL type (`enum` for SELECT / MULTI_SELECT / RATING, typed by TypeORM). */
  pgType: string;
  options?: readonly string[];
  nullable: boolean;
  /** The column's default as a value (undefined: none; DEFAULT_NOW: the clock), and as SQL. */
  defaultValue?: unknown;
  sqlDefault?: string;
}

const PG_TYPES: Partial<Record<FieldType, string>> = {
  TEXT: 'text',
  RICH_TEXT: 'text',
  NUMBER: 'double precision',
  POSITION: 'double precision',
  NUMERIC: 'numeric',
  BOOLEAN: 'boolean',
  DATE_TIME: 'timestamp with time zone',
  DATE: 'date',
  UUID: 'uuid',
  RAW_JSON: 'jsonb',
  ARRAY: 'text',
};

/** SQL literal of a default value (strings quoted, arrays and JSON as typed literals). */
export function sqlLiteral(type: FieldType, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === DEFAULT_NOW) return 'now()';
  const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;
  switch (type) {
    case 'RAW_JSON':
      return quote(JSON.stringify(value));
    case 'ARRAY':
    case 'MULTI_SELECT':
      // quote elements only when PostgreSQL would, so the literal matches what it prints back
      return quote(
        `{${(value as string[]).map((v) => (/^$|[{},"\\\s]|^null$/i.test(v) ? `"${v.replace(/(["\\])/g, '\\$1')}"` : v)).join(',')}}`,
      );
    case 'NUMBER':
    case 'NUMERIC':
    case 'POSITION':
    case 'BOOLEAN':
      return String(value);
    default:
      return quote(String(value));
  }
}

function scalarColumn(
  column: string,
  field: FieldDefinition,
  def: FieldDefinition,
  nullable: boolean,
  defaultValue: unknown,
): StorageColumn {
  const isEnum = def.type === 'SELECT' || def.type === 'MULTI_SELECT' || def.type === 'RATING';
  return {
    column,
    field,
    sub: def === field ? undefined : def,
    type: def.type,
    pgType: isEnum ? 'enum' : PG_TYPES[def.type]!,
    options: def.options,
    nullable,
    defaultValue,
    sqlDefault: sqlLiteral(def.type, defaultValue),
  };
}

/**
 * Columns of one field. A join column whose relation clears it on delete (SET_NULL) is stored
 * nullable even when the API requires it, so that deleting the target never leaves an orphan id.
 */
export function storageColumnsOf(field: FieldDefinition): StorageColumn[] {
  if (!isComposite(field.type)) {
    const nullable = field.nullable || field.relation?.onDelete === 'SET_NULL';
    return [scalarColumn(field.name, field, field, nullable, field.default)];
  }
  const defaults = (field.default ?? {}) as Record<string, unknown>;
  return subFieldsOf(field.type).map((sub) => {
    const column = `${field.name}${sub.name[0].toUpperCase()}${sub.name.slice(1)}`;
    const nullable = field.nullable || sub.nullable;
    // a parent default of null means "no sub-field defaults"; otherwise the parent's value wins
    const subDefault = field.default === null ? undefined : sub.name in defaults ? defaults[sub.name] : sub.default;
    return scalarColumn(column, field, sub, nullable, subDefault);
  });
}

/** True for the column types whose array form PostgreSQL stores as `text[]` / `enum[]`. */
export function isArrayColumn(col: StorageColumn): boolean {
  return col.type === 'ARRAY' || col.type === 'MULTI_SELECT';
}
