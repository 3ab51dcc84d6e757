import { GoneException, Injectable } from '@nestjs/common';
import { canRead } from '../model/readable-fields';
import { redact } from '../access/redact';
import { Db } from '../database/db';
import type { Access } from '../model/access';
import { CollectionCatalog } from '../model/collection-catalog';
import type { ApiRecord } from '../model/record';
import {
  ChangeRow,
  ChangeSelection,
  changesPageSql,
  HEAD_SQL,
  LOCK_SEQUENCER_SQL,
  sequenceSql,
  TOKEN_OF_SNAPSHOT_SQL,
} from '../repository/change-feed.statements';
import { tokenOf } from './change-tokens';
import type { ChangesQuery } from './changes-query';

/** One change as a client receives it (API.md section 15). */
export interface Change {
  id: string;
  eventName: string;
  collection: string;
  recordId: string;
  occurredAt: string;
  apiKeyId: string | null;
  record: ApiRecord | null;
  updatedFields?: string[];
}

/** What one read of the feed found: the changes (with their positions) and where the next read starts. */
export interface ChangeRead {
  changes: { pos: number; change: Change }[];
  hasNextPage: boolean;
  /** The position to read after next time. */
  end: number;
}

/**
 * The change feed (API.md section 15): positions handed out in commit order by the sequencer,
 * pages after a position for a key (its readable collections, hidden fields removed, its row
 * filters over the record after the change), and the position of a snapshot for exports.
 * Every read is a fixed number of statements, whatever the data.
 */
@Injectable()
export class ChangeFeed {
  constructor(
    private readonly db: Db,
    private readonly catalog: CollectionCatalog,
  ) {}

  /** Gives every committed entry without a position the next ones, in write order (serialised by an advisory lock). */
  async sequence(): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(LOCK_SEQUENCER_SQL);
      await tx.query(sequenceSql());
    });
  }

  /** `GET /changes/head`: every change committed before it is at or before the token, every later one after it. */
  async head(): Promise<string> {
    return tokenOf(await this.headPosition());
  }

  /** The position of the newest committed change (the sequencer run first). */
  async headPosition(): Promise<number> {
    await this.sequence();
    return this.sequencedHead();
  }

  /**
   * The newest position handed out so far, without running the sequencer (metrics: positions are
   * handed out when the feed is read, and every second while a stream is open).
   */
  async sequencedHead(): Promise<number> {
    const [row] = await this.db.query<{ pos: number }>(HEAD_SQL);
    return Number(row.pos);
  }

  /**
   * The feed token of a snapshot (`pg_current_snapshot()` read first in the export's REPEATABLE
   * READ transaction), computed on another connection: the entries visible in the snapshot get
   * their positions now (under the sequencer's lock), those committed after it stay without one
   * and get later positions. `GET /changes?since=<token>` then gives exactly the changes the
   * snapshot does not hold (and may repeat, in order, a few it holds: replaying them is harmless).
   */
  async tokenOfSnapshot(snapshot: string): Promise<string> {
    return this.db.transaction(async (tx) => {
      await tx.query(LOCK_SEQUENCER_SQL);
      await tx.query(sequenceSql(true), [snapshot]);
      const [row] = await tx.query<{ pos: number }>(TOKEN_OF_SNAPSHOT_SQL, [snapshot]);
      return tokenOf(Number(row.pos));
    });
  }

  /** The entries a key may see: its readable collections (or those asked for), each with its row filter. */
  selection(access: Access, query: Pick<ChangesQuery, 'collections'>): ChangeSelection {
    if (access.admin && !query.collections) return 'all';
    const metas = query.collections ?? this.catalog.all().filter((m) => canRead(access, m.plural));
    return metas.map((meta) => ({ meta, rows: access.admin ? undefined : access.grant(meta.plural)?.rows }));
  }

  /** `GET /changes`: a page after `since` (sequenced first); 410 when `since` is older than the retention. */
  async page(query: ChangesQuery, access: Access): Promise<ChangeRead> {
    await this.sequence();
    return this.read(this.selection(access, query), query.since, query.limit, access);
  }

  /** A page after `since` of the entries already sequenced (one statement). */
  async read(selection: ChangeSelection, since: number, limit: number, access: Access): Promise<ChangeRead> {
    const { entries, head } = await this.fetch(selection, since, limit + 1);
    const hasNextPage = entries.length > limit;
    const changes = entries.slice(0, limit).map((row) => ({ pos: Number(row.pos), change: this.shape(row, access) }));
    const last = changes.length ? changes[changes.length - 1].pos : since;
    // with no next page, every entry up to the head of the same snapshot was seen (or is not for this key)
    const end = hasNextPage ? last : Math.max(last, head, since);
    return { changes, hasNextPage, end };
  }

  /** The stored entries after `since` (at most `limit`) and the head of the same snapshot; 410 when `since` was trimmed. */
  async fetch(
    selection: ChangeSelection,
    since: number,
    limit: number,
  ): Promise<{ entries: ChangeRow[]; head: number }> {
    const { text, values } = changesPageSql(selection, since, limit);
    const rows = await this.db.query<ChangeRow>(text, values);
    if (since < Number(rows[0].trimmed))
      throw new GoneException(
        'The token is older than the change feed keeps (CHANGES_RETENTION_DAYS): take a new export, then follow its X-Changes-Token',
      );
    return { entries: rows.filter((r) => r.pos !== null), head: Number(rows[0].head ?? 0) };
  }

  /** An entry as the key may see it: hidden fields left out of the record and of `updatedFields`. */
  shape(row: ChangeRow, access: Access): Change {
    const meta = this.catalog.get(row.collection);
    const change: Change = {
      id: tokenOf(Number(row.pos)),
      eventName: row.eventName,
      collection: row.collection,
      recordId: row.recordId,
      occurredAt: row.occurredAt,
      apiKeyId: row.apiKeyId,
      record: row.record && meta ? redact(meta, row.record, access) : row.record,
    };
    if (row.eventName.endsWith('.updated')) {
      const omitted = access.admin ? undefined : access.grant(row.collection)?.omitted;
      change.updatedFields = (row.updatedFields ?? []).filter((f) => !omitted?.has(f));
    }
    return change;
  }
}
