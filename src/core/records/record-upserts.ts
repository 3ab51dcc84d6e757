import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { requireAction } from '../access/access-checks';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';
import { RequestActor, Row } from '../model/record';
import { RecordEvent, recordEvent } from '../model/record-events';
import { Shape } from '../query/record-shape';
import { RecordCodecs } from '../repository/record-codecs';
import { Repositories } from '../repository/repositories';
import { validateRecord } from '../validation/record-body';
import { insertRows } from './insert-rows';
import { patchChanges } from './patch-changes';
import { RecordShaper } from './record-shaper';
import { planUpsert, UniqueKey, uniqueKeys } from './upsert-plan';
import { CreateOptions, CreateResult, WriteUnit } from './write-unit';

/** A transaction-scoped advisory lock key (64 bits) for one key value of one table. */
function lockKey(table: string, key: string): string {
  return createHash('sha256').update(`${table}\u0000${key}`).digest().readBigInt64BE(0).toString();
}

/**
 * Upsert one or many (API.md section 11): each item matched by id and unique fields, then
 * created or patched, in one transaction of a fixed number of statements. Concurrent upserts of
 * the same keys are serialized by transaction-scoped advisory locks on those keys (taken in one
 * order, so two batches never deadlock): the first creates, the others find and update.
 */
@Injectable()
export class RecordUpserts {
  private readonly keys = new Map<CollectionMeta, UniqueKey[]>();

  constructor(
    private readonly unit: WriteUnit,
    catalog: CollectionCatalog,
    private readonly repositories: Repositories,
    private readonly codecs: RecordCodecs,
    private readonly shaper: RecordShaper,
    private readonly events: RecordEventBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    for (const meta of catalog.all()) this.keys.set(meta, uniqueKeys(meta));
  }

  /** `items` are validated partial records (update schema, optional `id`). Answers in input order. */
  async upsert(
    meta: CollectionMeta,
    items: Row[],
    shape: Shape,
    actor: RequestActor,
    options: CreateOptions = {},
  ): Promise<CreateResult> {
    // a create hook (apiKeys: a token shown once) has no meaning for a record that is patched
    if (meta.def.hooks?.beforeCreate) throw new BadRequestException(`${meta.plural} cannot be upserted`);
    await this.unit.checkFields(meta, items, options.indexed === true, actor.access);
    return this.unit.create(meta, items, options, async (tx) => {
      const rows = await this.write(tx, meta, items, actor, options.indexed === true);
      return { records: await this.shaper.shape(tx, meta, rows, shape, actor.access) };
    });
  }

  private async write(
    tx: Queryable,
    meta: CollectionMeta,
    items: Row[],
    actor: RequestActor,
    indexed: boolean,
  ): Promise<Row[]> {
    const keys = this.keys.get(meta)!;
    const ids = items.map((item) => item.id).filter((id): id is string => typeof id === 'string');
    const values = keys.map((key) => ({
      column: key.column,
      values: [...new Set(items.map(key.valueOf).filter((v): v is string => v !== undefined))],
    }));
    const locks = [
      ...new Set([...ids.map((id) => `id:${id}`), ...values.flatMap((k) => k.values.map((v) => `${k.column}:${v}`))]),
    ];
    const steps = this.repositories.steps(meta, actor.access);
    await steps.advisoryLocks(
      tx,
      locks.map((key) => lockKey(meta.table, key)),
    );
    const candidates = await steps.lockByKeys(
      tx,
      ids,
      values.filter((k) => k.values.length > 0),
    );
    const { targets } = planUpsert(items, keys, candidates);
    // an upsert creates what matches nothing and updates what matches: the key needs both actions
    if (targets.some((target) => target !== null)) requireAction(actor.access, meta.plural, 'update');
    if (targets.some((target) => target === null)) requireAction(actor.access, meta.plural, 'create');

    const created = this.validateCreates(meta, items, targets, indexed);
    const codec = this.codecs.of(meta);
    const result = new Map<number, Row>();
    const events: RecordEvent[] = [];
    if (created.length > 0) {
      const { columns, tuples } = insertRows(
        meta,
        codec,
        created.map((c) => c.input),
        actor,
      );
      const rows = await steps.insertMany(tx, columns, tuples);
      rows.forEach((row, n) => {
        result.set(created[n].index, row);
        events.push(recordEvent(meta, 'created', undefined, codec.toRecord(row)));
      });
    }
    const updates = items.flatMap((item, index) => (targets[index] ? [{ index, id: targets[index]!, item }] : []));
    if (updates.length > 0) {
      const before = new Map(candidates.map((row) => [row.id as string, row]));
      const { columns, changes } = patchChanges(
        codec,
        updates.map(({ id, item }) => ({ id, fields: item })),
      );
      const after = new Map((await steps.patchEach(tx, columns, changes)).map((row) => [row.id as string, row]));
      for (const { index, id } of updates) {
        const row = after.get(id)!;
        result.set(index, row);
        const previous = codec.toRecord(before.get(id)!);
        const current = codec.toRecord(row);
        if (previous.deletedAt !== null) events.push(recordEvent(meta, 'restored', undefined, current));
        const updated = recordEvent(meta, 'updated', { ...previous, deletedAt: current.deletedAt }, current);
        if (updated.updatedFields!.length > 0) events.push(updated);
      }
    }
    const written = items.map((_, index) => result.get(index)!);
    await steps.requireInScope(
      tx,
      written.map((row) => row.id as string),
    );
    await this.events.record(tx, events, actor);
    return written;
  }

  /** Items that create a record must be valid creates (required fields): 400 naming each. */
  private validateCreates(
    meta: CollectionMeta,
    items: Row[],
    targets: (string | null)[],
    indexed: boolean,
  ): { index: number; input: Row }[] {
    const messages: string[] = [];
    const created: { index: number; input: Row }[] = [];
    items.forEach((item, index) => {
      if (targets[index] !== null) return;
      const result = validateRecord(meta.def.create, item, true, this.config.maxBodyDepth);
      if (result.ok) created.push({ index, input: result.value });
      else messages.push(...result.messages.map((m) => (indexed ? `[${index}] ${m}` : m)));
    });
    if (messages.length) throw new BadRequestException(messages);
    return created;
  }
}
