import { randomUUID } from 'node:crypto';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { RecordCodec } from '../repository/record-codec';

/** The columns and values of an INSERT of validated inputs, and what each record adds to the answer. */
export interface InsertRows {
  columns: string[];
  tuples: unknown[][];
  /** Per record, fields to add to this create's answer only (a token shown once). */
  extras: Row[];
}

/** ACTOR fields (createdBy) are set from the API key unless the client gave a `source`. */
function withActor(meta: CollectionMeta, input: Row, actor: RequestActor): Row {
  const actorFields = meta.fields.filter((f) => f.type === 'ACTOR');
  if (actorFields.length === 0) return input;
  const out = { ...input };
  for (const field of actorFields) {
    const given = input[field.name] as Row | null | undefined;
    if (given && given.source !== undefined) continue;
    out[field.name] = {
      source: 'API',
      name: actor.apiKeyName,
      workspaceMemberId: actor.workspaceMemberId,
      context: {},
    };
  }
  return out;
}

/**
 * Rows to insert for validated inputs (optional client `id`, else a new UUID): every column at
 * its given or declared default value, the collection's `beforeCreate` hook applied.
 */
export function insertRows(meta: CollectionMeta, codec: RecordCodec, inputs: Row[], actor: RequestActor): InsertRows {
  const hooks = meta.def.hooks;
  const hidden = hooks?.hiddenColumns ?? [];
  const columns = ['id', ...meta.columns.map((c) => c.column), ...hidden];
  const extras: Row[] = [];
  const tuples = inputs.map((input) => {
    const { id, ...fields } = input;
    const override = hooks?.beforeCreate?.(fields) ?? {};
    extras.push(override.response ?? {});
    const values = codec.insertValues(withActor(meta, fields, actor));
    return [id ?? randomUUID(), ...values, ...hidden.map((c) => override.hidden?.[c] ?? null)];
  });
  return { columns, tuples, extras };
}
