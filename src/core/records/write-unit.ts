import { Injectable } from '@nestjs/common';
import { CountCache } from '../cache/count-cache';
import { Db, Queryable } from '../database/db';
import { RecordEventBus } from '../events/event-bus';
import { CollectionCatalog } from '../model/collection-catalog';
import { CollectionMeta } from '../model/collection-meta';

/** Which cached counts a write may change: its own collection's, or every collection's (a hard delete's cascades). */
export type Touches = 'own' | 'all';

/**
 * The frame of every write: one transaction, then (committed, before the answer) the cached
 * counts of what it touched marked as changed: its collection and the collections its events
 * write into; a hard delete may clear or delete rows of any collection that points at it.
 */
@Injectable()
export class WriteUnit {
  constructor(
    private readonly db: Db,
    private readonly catalog: CollectionCatalog,
    private readonly events: RecordEventBus,
    private readonly counts: CountCache,
  ) {}

  async run<T>(meta: CollectionMeta, work: (tx: Queryable) => Promise<T>, touches: Touches = 'own'): Promise<T> {
    const result = await this.db.transaction(work);
    await this.counts.changed(touches === 'all' ? this.catalog.all().map((m) => m.plural) : [meta.plural, ...this.events.writes]);
    return result;
  }
}
