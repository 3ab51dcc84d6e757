import { randomUUID } from 'node:crypto';
import { Queryable } from '../database/db';
import { col } from '../query/apply-query';
import { CollectionMeta } from '../model/collection-meta';
import { RecordCodecs } from './record-codecs';

/** Who is calling: the API key behind the request. */
export interface RequestActor {
  apiKeyId: string;
  apiKeyName: string;
  workspaceMemberId: string | null;
}

type Row = Record<string, unknown>;

/** PostgreSQL accepts at most 65535 bound parameters per statement. */
const MAX_PARAMS = 60_000;

/**
 * The write statements of the shared CRUD base. Callers run them inside a transaction.
 * Each returns the affected rows with every readable column (`RETURNING`), so a write never
 * needs a second read.
 */
export class RecordWriter {
  constructor(private readonly codecs: RecordCodecs) {}

  /** ACTOR fields (createdBy) are set from the API key unless the client gave a `source`. */
  private withActor(meta: CollectionMeta, input: Row, actor: RequestActor): Row {
    const actorFields = meta.fields.filter((f) => f.type === 'ACTOR');
    if (actorFields.length === 0) return input;
    const out = { ...input };
    for (const field of actorFields) {
      const given = input[field.name] as Row | null | undefined;
      if (given && given.source !== undefined) continue;
      out[field.name] = { source: 'API', name: actor.apiKeyName, workspaceMemberId: actor.workspaceMemberId, context: {} };
    }
    return out;
  }

  /** Inserts records (in input order) and returns their rows plus per-record response extras. */
  async insert(tx: Queryable, meta: CollectionMeta, inputs: Row[], actor: RequestActor) {
    const codec = this.codecs.of(meta);
    const hooks = meta.def.hooks;
    const hidden = hooks?.hiddenColumns ?? [];
    const columns = ['id', ...meta.columns.map((c) => c.column), ...hidden];
    const extras: Row[] = [];
    const tuples = inputs.map((input) => {
      const { id, ...fields } = input;
      const override = hooks?.beforeCreate?.(fields) ?? {};
      extras.push(override.response ?? {});
      const values = codec.insertValues(this.withActor(meta, fields, actor));
      return [id ?? randomUUID(), ...values, ...hidden.map((c) => override.hidden?.[c] ?? null)];
    });
    const rowsPerStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
    const returned = new Map<unknown, Row>();
    for (let start = 0; start < tuples.length; start += rowsPerStatement) {
      const chunk = tuples.slice(start, start + rowsPerStatement);
      const params: unknown[] = [];
      const valuesSql = chunk
        .map((tuple) => `(${tuple.map((v) => (params.push(v), `$${params.length}`)).join(', ')})`)
        .join(', ');
      const rows = await tx.query(
        `INSERT INTO ${meta.sqlTable} (${columns.map(col).join(', ')}) VALUES ${valuesSql} RETURNING ${meta.selectList}`,
        params,
      );
      for (const row of rows) returned.set(row.id, row);
    }
    return { rows: tuples.map((t) => returned.get(t[0])!), extras };
  }

  /**
   * Partial update of a live record: its row before (locked) and after, or undefined when it
   * does not exist. `after` is absent when the body changes nothing (no statement runs).
   */
  async update(
    tx: Queryable,
    meta: CollectionMeta,
    id: string,
    input: Row,
    check?: (before: Row) => void,
  ): Promise<{ before: Row; after?: Row } | undefined> {
    const { columns, values } = this.codecs.of(meta).updateAssignments(input);
    const lock = columns.length || check ? ' FOR UPDATE' : '';
    const [before] = await tx.query(
      `SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1 AND "deletedAt" IS NULL${lock}`,
      [id],
      `${meta.plural}.before${lock ? 'Locked' : ''}`,
    );
    if (before) check?.(before);
    if (!before || columns.length === 0) return before && { before };
    const sets = columns.map((c, i) => `${col(c.column)} = $${i + 2}`);
    const [after] = await tx.query(
      `UPDATE ${meta.sqlTable} SET ${sets.join(', ')}, "updatedAt" = now() WHERE "id" = $1 RETURNING ${meta.selectList}`,
      [id, ...values],
    );
    return { before, after };
  }

  /** Locks a record (live only, or any when `liveOnly` is false) and returns its row. */
  async lock(tx: Queryable, meta: CollectionMeta, id: string, liveOnly: boolean): Promise<Row | undefined> {
    const live = liveOnly ? ' AND "deletedAt" IS NULL' : '';
    const [row] = await tx.query(`SELECT ${meta.selectList} FROM ${meta.sqlTable} WHERE "id" = $1${live} FOR UPDATE`, [id]);
    return row;
  }

  /** Sets or clears `deletedAt` (soft delete / restore) when `condition` holds. */
  async setDeletedAt(tx: Queryable, meta: CollectionMeta, id: string, value: 'now()' | 'NULL', condition: string) {
    const [row] = await tx.query(
      `UPDATE ${meta.sqlTable} SET "deletedAt" = ${value} WHERE "id" = $1 AND ${condition} RETURNING ${meta.selectList}`,
      [id],
    );
    return row as Row | undefined;
  }

  /** Hard delete; foreign keys clear (SET NULL) or delete (CASCADE) the rows that point here. */
  async destroy(tx: Queryable, meta: CollectionMeta, id: string): Promise<Row | undefined> {
    const [row] = await tx.query(`DELETE FROM ${meta.sqlTable} WHERE "id" = $1 RETURNING ${meta.selectList}`, [id]);
    return row;
  }
}
