import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import type { CollectionMeta } from '../../core/model/collection-meta';
import { EVENT_RELATION } from '../../core/repository/event-rows';
import { FileCleaner } from './file-cleaner';

/**
 * The outbox of files to remove: every hard-deleted attachment with a stored file adds a
 * `fileDeletion` row in the transaction of its delete (the trigger of migration
 * FileDeletionOnCascade: a delete of attachments, one, many or by filter, and the cascade of a
 * hard-deleted person, company or opportunity alike). A rolled-back delete leaves none; once
 * committed, the FileCleaner removes the objects (retried until done). A soft delete keeps the file.
 * This subscriber counts, in the delete's own statement, the attachments with a file it destroys,
 * so the cleaner starts at once after the commit; rows a cascade added wait for its next round
 * (`FILE_CLEANUP_INTERVAL_MS`).
 */
@Injectable()
export class FileDeletionOutboxSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'file-deletions';
  readonly writes = [];

  constructor(
    private readonly bus: RecordEventBus,
    private readonly cleaner: FileCleaner,
  ) {}

  onModuleInit(): void {
    this.bus.subscribe(this);
  }

  statements(collections: CollectionMeta[]): EventStatement[] {
    if (!collections.some((meta) => meta.def.files)) return [];
    const sql = `SELECT 1 FROM ${EVENT_RELATION} e WHERE e."name" = 'attachment.destroyed' AND e."before"->>'checksum' IS NOT NULL`;
    return [{ name: 'files', sql, committed: (rows) => rows > 0 && this.cleaner.wake() }];
  }
}
