import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../events/event-bus';
import type { CollectionMeta } from '../model/collection-meta';
import type { RequestActor } from '../model/record';
import { SqlParams } from '../query/sql-params';
import { changeInsertSql } from '../repository/change-feed.statements';
import { ChangeSignal } from './change-signal';

/**
 * Writes the change feed: one entry per record event (bulk writes, upserts and merges included),
 * a CTE of the write's own statement, so an entry commits with its change or not at all, at no
 * extra round trip. Its position comes later, from the sequencer (ChangeFeed.sequence); once the
 * write committed, the open streams of every instance are told (ChangeSignal).
 */
@Injectable()
export class ChangeFeedSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'changes';
  readonly writes = [];

  constructor(
    private readonly bus: RecordEventBus,
    private readonly signal: ChangeSignal,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(this);
  }

  statements(collections: CollectionMeta[], actor: RequestActor, params: SqlParams): EventStatement[] {
    const sql = changeInsertSql(collections, params.add(actor.apiKeyId || null));
    return [{ name: 'changes', sql, afterCommit: this.signal.committed }];
  }
}
