import { canRead } from '../model/readable-fields';
import { redact } from '../access/redact';
import { Queryable } from '../database/db';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta, RelationMeta } from '../model/collection-meta';
import { ApiRecord, Row } from '../model/record';
import { Depth } from '../query/parse-params';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';

/**
 * Attaches relation fields to a page of records: one query per relation per level for the
 * whole page (never one per record), at most `limit` children per relation per parent.
 *   depth 1: MANY_TO_ONE -> the related record (depth 0) or null; ONE_TO_MANY -> array (depth 0)
 *   depth 2: the same, and every related record carries its own relations at depth 1
 */
export class RelationLoader {
  constructor(
    private readonly catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly limit: number,
  ) {}

  /** Loads the relations of `records`; with `only`, just the relations named there (fields=). */
  async attach(
    db: Queryable,
    meta: CollectionMeta,
    records: ApiRecord[],
    depth: Depth,
    access: Access,
    only?: string[],
  ): Promise<void> {
    if (depth === 0 || records.length === 0) return;
    // a relation to a collection the key cannot read is left out (redact removes its name)
    const wanted = (rel: RelationMeta) => (!only || only.includes(rel.name)) && canRead(access, rel.target);
    await Promise.all([
      ...meta.manyToOne.filter(wanted).map((rel) => this.attachManyToOne(db, rel, records, depth, access)),
      ...meta.oneToMany.filter(wanted).map((rel) => this.attachOneToMany(db, rel, records, depth, access)),
    ]);
  }

  /** Related records of `target` as the key sees them: within its rows (the loads are scoped), redacted. */
  private related(target: CollectionMeta, rows: Row[], access: Access): ApiRecord[] {
    const codec = this.codecs.of(target);
    return rows.map((row) => redact(target, codec.toRecord(row), access));
  }

  private async attachManyToOne(db: Queryable, rel: RelationMeta, records: ApiRecord[], depth: Depth, access: Access) {
    const target = this.catalog.require(rel.target);
    const ids = [
      ...new Set(records.map((r) => r[rel.joinColumn]).filter((id): id is string => typeof id === 'string')),
    ];
    const byId = new Map<string, ApiRecord>();
    if (ids.length > 0) {
      const rows = await this.repositories.of(target, access).findLiveByIds(db, ids);
      const related = this.related(target, rows, access);
      for (const r of related) byId.set(r.id as string, r);
      if (depth === 2) await this.attach(db, target, related, 1, access);
    }
    for (const record of records) {
      const id = record[rel.joinColumn];
      record[rel.name] = typeof id === 'string' ? (byId.get(id) ?? null) : null;
    }
  }

  private async attachOneToMany(db: Queryable, rel: RelationMeta, records: ApiRecord[], depth: Depth, access: Access) {
    const child = this.catalog.require(rel.target);
    const rows = await this.repositories.of(child, access).children(
      db,
      rel.joinColumn,
      records.map((r) => r.id),
      this.limit,
    );
    const children = this.related(child, rows, access);
    if (depth === 2) await this.attach(db, child, children, 1, access);
    const byParent = new Map<unknown, ApiRecord[]>();
    for (const c of children) {
      const list = byParent.get(c[rel.joinColumn]);
      if (list) list.push(c);
      else byParent.set(c[rel.joinColumn], [c]);
    }
    for (const record of records) record[rel.name] = byParent.get(record.id) ?? [];
  }
}
