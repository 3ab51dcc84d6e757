import { redact } from '../access/redact';
import { Queryable } from '../database/db';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { RelationLoader } from './relation-loader';

/** Keeps only the requested fields of records (after relations were attached). */
export function project(records: ApiRecord[], fields: string[] | undefined): ApiRecord[] {
  if (!fields) return records;
  return records.map((record) => {
    const kept: ApiRecord = {};
    for (const name of fields) if (name in record) kept[name] = record[name];
    return kept;
  });
}

/** Turns stored rows into the records of an answer: decoded, relations attached, fields kept. */
export class RecordShaper {
  constructor(
    private readonly codecs: RecordCodecs,
    private readonly relations: RelationLoader,
  ) {}

  /** Depth-0 records of rows (no relation fields). */
  records(meta: CollectionMeta, rows: Row[]): ApiRecord[] {
    const codec = this.codecs.of(meta);
    return rows.map((row) => codec.toRecord(row));
  }

  /** The records of an answer for the key: decoded, relations attached (those it can read), what it may not read removed, fields kept. */
  async shape(db: Queryable, meta: CollectionMeta, rows: Row[], shape: Shape, access: Access): Promise<ApiRecord[]> {
    const records = this.records(meta, rows);
    await this.relations.attach(db, meta, records, shape.depth, access, shape.fields);
    return project(access.admin ? records : records.map((r) => redact(meta, r, access)), shape.fields);
  }
}
