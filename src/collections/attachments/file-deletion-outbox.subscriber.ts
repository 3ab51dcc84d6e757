import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import type { CollectionMeta } from '../../core/model/collection-meta';
import { EVENT_RELATION } from '../../core/repository/event-rows';
import { FileCleaner } from './file-cleaner';

/**
 * The outbox of files to remove: a hard delete of attachments (one, many, by filter: every write
 * that emits `attachment.destroyed`) adds a `fileDeletion` row per attachment that had a stored
 * file, in the statement of the delete itself. A rolled-back delete leaves none; once committed,
 * the FileCleaner removes the objects (retried until done). A soft delete keeps the file.
 * The key is the one the upload used, made from the record id (never from `fullPath`).
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
    const id = `e."recordId"::text`;
    const sql =
      `INSERT INTO "fileDeletion" ("objectKey") SELECT substr(${id}, 1, 2) || '/' || substr(${id}, 3, 2) || '/' || ${id} ` +
      `FROM ${EVENT_RELATION} e WHERE e."name" = 'attachment.destroyed' AND e."before"->>'checksum' IS NOT NULL RETURNING 1`;
    return [{ name: 'files', sql, committed: (rows) => rows > 0 && this.cleaner.wake() }];
  }
}
