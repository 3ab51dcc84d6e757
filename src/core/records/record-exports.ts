import type { PGlite } from '@electric-sql/pglite';
import { Inject, Injectable } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Readable } from 'node:stream';
import type { Pool } from 'pg';
import { redact } from '../access/redact';
import { ChangeFeed } from '../changes/change-feed.service';
import { EMBEDDED_DB } from '../database/database.module';
import { Db, ReadTarget } from '../database/db';
import { copyLines, cursorLines, ExportSource } from '../database/export-stream';
import type { Access } from '../model/access';
import { CollectionMeta } from '../model/collection-meta';
import { Row } from '../model/record';
import { ExportQuery } from '../query/export-query';
import { listSql } from '../query/list-sql';
import { Repositories } from '../repository/repositories';
import { csvColumns, EXPORT_TYPES, exportBytes } from './export-formats';
import { project, RecordShaper } from './record-shaper';

/** An export under way: its media type and file name, its bytes, the feed position of its snapshot. */
export interface OpenExport {
  type: string;
  /** `people.csv`, `people.ndjson`. */
  filename: string;
  stream: Readable;
  /** `X-Changes-Token`: following the feed from it brings the export up to date (API.md section 15). */
  changesToken: string;
}

/** Rows a cursor fetches at a time: what an export holds in memory at most (besides the sockets' buffers). */
const CURSOR_BATCH = 500;

/**
 * Exports (API.md section 15): every record a list request matches, at depth 0, no page limit,
 * in one REPEATABLE READ snapshot, streamed at the reader's pace in constant memory. Each record
 * is the JSON a list gives at depth 0: built inside PostgreSQL by the statement owner, and sent
 * by `COPY ... TO STDOUT` (PostgreSQL) or a cursor (PGlite); decoded in Node, through a cursor,
 * where PostgreSQL cannot build it (secrets decrypted, a collection's own redaction for a key).
 */
@Injectable()
export class RecordExports {
  constructor(
    private readonly db: Db,
    private readonly repositories: Repositories,
    private readonly shaper: RecordShaper,
    @Inject(EMBEDDED_DB) private readonly embedded: PGlite | null,
    private readonly modules: ModuleRef,
  ) {}

  /** The change feed (its module is the feed routes'; one instance for the application). */
  private get feed(): ChangeFeed {
    return this.modules.get(ChangeFeed, { strict: false });
  }

  /** Opens the export (its statement has started: an error until here is the request's answer, before any byte). */
  async open(
    meta: CollectionMeta,
    query: ExportQuery,
    access: Access,
    reads: ReadTarget = this.db,
  ): Promise<OpenExport> {
    const omitted = access.admin ? undefined : access.grant(meta.plural)?.omitted;
    const wanted = query.fields && new Set(query.fields);
    const keep = (name: string) => (!wanted || wanted.has(name)) && !omitted?.has(name);
    const list = listSql(meta, { filter: query.filter, sort: query.sort, sortSignature: '', limit: 0, depth: 0 });
    const repository = this.repositories.of(meta, access);
    const ordered = query.ordered;
    const inNode = meta.fields.some((f) => f.encrypted) || (!access.admin && meta.def.hooks?.redact !== undefined);
    // PGlite has one connection, busy with the export until it ends: the feed's head is read
    // before it (no write can commit meanwhile but one already queued, which the feed then
    // repeats: harmless, a change carries the whole record)
    const head = this.embedded ? await this.feed.head() : undefined;
    const start = (pool: Pool): Promise<ExportSource> => {
      if (inNode) {
        const render = (rows: Row[]) =>
          this.shaper
            .records(meta, rows)
            .map((record) => `${JSON.stringify(project([redact(meta, record, access)], query.fields)[0])}\n`)
            .join('');
        return cursorLines(pool, repository.exportStatement(list, ordered), CURSOR_BATCH, render);
      }
      if (this.embedded) {
        const statement = repository.exportStatement(list, ordered, { keep });
        const render = (rows: { line: string }[]) => rows.map((row) => `${row.line}\n`).join('');
        return cursorLines(pool, statement, CURSOR_BATCH, render);
      }
      return copyLines(pool, repository.exportStatement(list, ordered, { keep }));
    };
    // the request's replica when it has one (its snapshot's token is computed below, on the
    // primary); one that fails to start the export leaves it to the primary
    const readPool = reads.pool;
    const source = await start(readPool).catch((error: unknown) => {
      if (readPool === this.db.pool) throw error;
      return start(this.db.pool);
    });
    let changesToken: string;
    try {
      changesToken = head ?? (await this.feed.tokenOfSnapshot(source.snapshot));
    } catch (error) {
      source.stream.destroy();
      throw error;
    }
    return {
      type: EXPORT_TYPES[query.format],
      filename: `${meta.plural}.${query.format}`,
      stream: exportBytes(source.stream, query.format, csvColumns(meta, keep)),
      changesToken,
    };
  }
}
