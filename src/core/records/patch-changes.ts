import { Row } from '../model/record';
import { RecordCodec } from '../repository/record-codec';

/**
 * The per-record changes of a patch (`patchSql`, `WriteStatements.patch`) from validated update
 * bodies: for each record `{__id, __set: [columns it assigns], <column>: value}`, and every column
 * some record assigns. The record set is JSON: a JSON field is bound as its value, not its text.
 */
export function patchChanges(
  codec: RecordCodec,
  updates: { id: string; fields: Row }[],
): { columns: string[]; changes: Row[] } {
  const columns = new Set<string>();
  const changes = updates.map(({ id, fields }) => {
    const { id: _id, ...assignable } = fields;
    const assigned = codec.updateAssignments(assignable);
    const change: Row = { __id: id, __set: assigned.columns.map((c) => c.column) };
    assigned.columns.forEach((c, i) => {
      columns.add(c.column);
      const value = assigned.values[i];
      change[c.column] = c.type === 'RAW_JSON' && typeof value === 'string' ? JSON.parse(value) : value;
    });
    return change;
  });
  return { columns: [...columns], changes };
}
