import { literal as key, q } from '../database/sql';
import { isComposite } from '../fields/field-definition';
import { StorageColumn } from '../fields/storage-columns';
import { CollectionMeta } from '../model/collection-meta';

/** What an event copy of a secret holds (as `recordEvent` in Node: secrets never reach events). */
export const REDACTED_SQL = `'"[redacted]"'::jsonb`;

/** ISO 8601 UTC with milliseconds, as `toIsoTimestamp` prints it in Node. */
const isoSql = (expr: string) => `to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The value of a stored column in the event copy of a record (its JSON value, before the object is built). */
export function valueSql(col: StorageColumn, ref: string): string {
  switch (col.type) {
    case 'DATE_TIME':
      return isoSql(ref);
    case 'NUMERIC':
      // Node answers Number(value): the nearest double, printed shortest
      return `${ref}::float8`;
    case 'MULTI_SELECT':
      return `${ref}::text[]`;
    default:
      return ref;
  }
}

/**
 * `jsonb_build_object` takes at most 100 arguments: longer records are built in pieces. `text`:
 * built as `json` text where it fits in one call (keys in the record's order, no jsonb value to
 * build and print again: what an export sends).
 */
function buildObject(pairs: string[], text = false): string {
  if (text && pairs.length <= 50) return `json_build_object(${pairs.join(', ')})`;
  const pieces: string[] = [];
  for (let i = 0; i < pairs.length; i += 40) pieces.push(`jsonb_build_object(${pairs.slice(i, i + 40).join(', ')})`);
  return pieces.length ? pieces.join(' || ') : `'{}'::jsonb`;
}

/**
 * SQL for the event copy of a record at depth 0 from the row `alias` of its table: the same JSON
 * as `recordEvent(meta, ..., codec.toRecord(row))` builds in Node (composites as objects, a
 * nullable composite with every sub-field null as null, timestamps in ISO 8601 UTC with
 * milliseconds, numerics as numbers, encrypted fields redacted, write-only fields absent). It
 * lets a set-based write produce its events inside PostgreSQL, without a round trip of its rows,
 * and an export its records (`keep`: the top-level fields kept besides `id`, every one by default;
 * `text`: as json text, see buildObject).
 */
export function recordJsonSql(
  meta: CollectionMeta,
  alias: string,
  keep: (name: string) => boolean = () => true,
  text = false,
): string {
  const object = (pairs: string[]) => (text ? `json_build_object(${pairs.join(', ')})` : buildObject(pairs));
  const ref = (column: string) => `${alias}.${q(column)}`;
  const pairs = [`'id', ${ref('id')}`];
  for (const field of meta.fields) {
    if (field.writeOnly || !keep(field.name)) continue;
    const cols = meta.columnsByField.get(field.name)!;
    if (field.encrypted) {
      pairs.push(`${key(field.name)}, ${REDACTED_SQL}`);
    } else if (!isComposite(field.type)) {
      pairs.push(`${key(field.name)}, ${valueSql(cols[0], ref(cols[0].column))}`);
    } else {
      const value = object(cols.map((c) => `${key(c.sub!.name)}, ${valueSql(c, ref(c.column))}`));
      const allNull = cols.map((c) => `${ref(c.column)} IS NULL`).join(' AND ');
      pairs.push(`${key(field.name)}, ${field.nullable ? `CASE WHEN ${allNull} THEN NULL ELSE ${value} END` : value}`);
    }
  }
  for (const column of ['createdAt', 'updatedAt', 'deletedAt'])
    if (keep(column)) pairs.push(`${key(column)}, ${isoSql(ref(column))}`);
  return buildObject(pairs, text);
}
