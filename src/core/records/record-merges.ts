import { Injectable, NotFoundException } from '@nestjs/common';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { ApiRecord, RequestActor } from '../model/record';
import { RecordEvent, recordEvent } from '../model/record-events';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { mergedFields } from './merge-values';
import { RecordShaper } from './record-shaper';
import { WriteUnit } from './write-unit';

/** A checked merge request: 2 to 9 distinct ids, the index of the survivor among them. */
export interface MergeInput {
  ids: string[];
  conflictPriorityIndex: number;
  dryRun: boolean;
}

/** Thrown inside the transaction of a dry run to roll it back with its answer. */
class DryRun {
  constructor(readonly record: ApiRecord) {}
}

/**
 * Merge (API.md section 11): the survivor takes the empty fields and list values of the others,
 * every join column in any collection that points at a merged-away record is re-pointed to the
 * survivor (the relations come from the catalog), the merged-away records are soft-deleted.
 * One transaction; a dry run does all of it and rolls back, so it answers exactly what a merge
 * would (unique conflicts included) and writes nothing.
 */
@Injectable()
export class RecordMerges {
  constructor(
    private readonly unit: WriteUnit,
    private readonly catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly shaper: RecordShaper,
    private readonly events: RecordEventBus,
  ) {}

  async merge(meta: CollectionMeta, input: MergeInput, shape: Shape, actor: RequestActor): Promise<ApiRecord> {
    try {
      // the collections whose join columns are re-pointed change too
      const repointed = { also: meta.oneToMany.map((rel) => rel.target) };
      return await this.unit.run(
        meta,
        async (tx) => {
          const record = await this.mergeIn(tx, meta, input, shape, actor);
          if (input.dryRun) throw new DryRun(record);
          return record;
        },
        repointed,
      );
    } catch (error) {
      if (error instanceof DryRun) return error.record;
      throw error;
    }
  }

  private async mergeIn(
    tx: Queryable,
    meta: CollectionMeta,
    input: MergeInput,
    shape: Shape,
    actor: RequestActor,
  ): Promise<ApiRecord> {
    const codec = this.codecs.of(meta);
    const steps = this.repositories.steps(meta, actor.access);
    const rows = await steps.lockLive(tx, input.ids);
    const byId = new Map(rows.map((row) => [row.id as string, row]));
    const missing = input.ids.filter((id) => !byId.has(id));
    if (missing.length) throw new NotFoundException(`Record not found: ${missing.join(', ')}`);
    const survivorId = input.ids[input.conflictPriorityIndex];
    const mergedIds = input.ids.filter((id) => id !== survivorId);
    const survivor = codec.toRecord(byId.get(survivorId)!);
    const others = mergedIds.map((id) => codec.toRecord(byId.get(id)!));
    const events: RecordEvent[] = [];

    for (const rel of meta.oneToMany) {
      // every record pointing at a merged-away one follows it, whatever the key sees of them
      const child = this.catalog.require(rel.target);
      const childCodec = this.codecs.of(child);
      for (const row of await this.repositories
        .steps(child, undefined)
        .repoint(tx, rel.joinColumn, mergedIds, survivorId)) {
        const after = childCodec.toRecord(row);
        events.push(
          recordEvent(child, 'updated', { ...after, [rel.joinColumn]: row.__before, updatedAt: null }, after),
        );
      }
    }
    // soft-deleted first: their unique values are free for the survivor to take
    for (const row of await steps.softDeleteByIds(tx, mergedIds)) {
      const record = codec.toRecord(row);
      events.push(recordEvent(meta, 'deleted', { ...record, deletedAt: null }, record));
    }
    const { columns, values } = codec.updateAssignments(mergedFields(meta, survivor, others));
    let row = byId.get(survivorId)!;
    if (columns.length > 0) {
      row = (await steps.updateOne(
        tx,
        survivorId,
        columns.map((c) => c.column),
        values,
      ))!;
      events.push(recordEvent(meta, 'updated', survivor, codec.toRecord(row)));
      // the survivor must stay within the key's rows (API.md section 14)
      await steps.requireInScope(tx, [survivorId]);
    }
    await this.events.record(tx, events, actor);
    return (await this.shaper.shape(tx, meta, [row], shape, actor.access))[0];
  }
}
