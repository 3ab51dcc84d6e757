import type { PGlite } from '@electric-sql/pglite';
import { BeforeApplicationShutdown, GoneException, Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { EMBEDDED_DB } from '../database/database.module';
import { Db } from '../database/db';
import type { Access } from '../model/access';
import { CHANGES_CHANNEL, type ChangeSelection } from '../repository/change-feed.statements';
import { Change, ChangeFeed } from './change-feed.service';
import { detached } from '../tracing/tracing';

const PAGE = 1000;
/** A read for the open streams at least this often, whatever the notifications (one lost when its writer died). */
const POLL_MS = 1000;

/** One open `GET /changes/stream`: what it may receive, where it is, and how to write to it. */
export interface ChangeStreamSink {
  since: number;
  access: Access;
  selection: ChangeSelection;
  /** Plural names it receives; undefined: every collection (an admin key without `collections`). */
  collections?: ReadonlySet<string>;
  /** A grant with a row filter: read on its own (the filter runs in SQL). */
  rowFiltered: boolean;
  send(text: string): void;
  /** Whether what was sent is still waiting for the client (it gets no more until it drains). */
  congested(): boolean;
  end(): void;
}

/** A change as a Server-Sent Event. */
export const changeEvent = (change: Change) => `id: ${change.id}\nevent: change\ndata: ${JSON.stringify(change)}\n\n`;

/**
 * The open change streams of this instance. It LISTENs on one connection of its own (PGlite: its
 * listen API) and, on each notification, runs the sequencer and ONE read for all the streams
 * (notifications that arrive meanwhile coalesce into one more read); streams of keys with row
 * filters get a read each. Writers notify after their commit (ChangeSignal); a read also runs
 * every second, should a notification have been lost with its writer. Every
 * `CHANGES_KEEPALIVE_MS` a comment line goes to every stream. At shutdown the streams end, so clients
 * reconnect to another instance with their Last-Event-ID. A stream whose client has not taken
 * what was sent is skipped until it has (backpressure: a slow client holds one page at most).
 */
@Injectable()
export class ChangeStreams implements BeforeApplicationShutdown {
  private readonly sinks = new Set<ChangeStreamSink>();
  private readonly logger = new Logger('ChangeStreams');
  private listener?: Promise<void>;
  private stopListening?: () => Promise<void>;
  private timer?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private running = false;
  private again = false;
  private closed = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EMBEDDED_DB) private readonly embedded: PGlite | null,
  ) {}

  /** Starts delivering to a stream: what was committed after its position, then every new change. */
  add(sink: ChangeStreamSink): void {
    if (this.closed) return sink.end();
    this.sinks.add(sink);
    // the work shared by every stream (LISTEN, timers, reads) runs outside the opening request's trace
    detached(() => {
      this.listener ??= this.listen().catch((error: Error) => this.logger.warn(`LISTEN failed: ${error.message}`));
      this.timer ??= setInterval(() => this.tick(), this.config.changesKeepAliveMs);
      this.poll ??= setInterval(() => this.wake(), POLL_MS);
    })();
    this.wake();
  }

  /** The open streams of this instance and the position of the one furthest behind (metrics). */
  get open(): { count: number; slowest?: number } {
    let slowest: number | undefined;
    for (const sink of this.sinks) slowest = Math.min(slowest ?? sink.since, sink.since);
    return { count: this.sinks.size, slowest };
  }

  remove(sink: ChangeStreamSink): void {
    this.sinks.delete(sink);
  }

  /** A read for every stream soon: one at a time, wake-ups during a read make one more. */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void detached(() => this.loop())();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearInterval(this.poll);
    for (const sink of this.sinks) sink.end();
    this.sinks.clear();
    await this.listener;
    await this.stopListening?.().catch(() => undefined);
  }

  private tick(): void {
    this.listener ??= this.listen().catch((error: Error) => this.logger.warn(`LISTEN failed: ${error.message}`));
    for (const sink of this.sinks) sink.send(': keep-alive\n\n');
    this.wake();
  }

  private async loop(): Promise<void> {
    try {
      do {
        this.again = false;
        if (this.sinks.size > 0) await this.deliver();
      } while (this.again && !this.closed);
    } catch (error) {
      this.logger.warn(`change stream read failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private async deliver(): Promise<void> {
    await this.feed.sequence();
    const ready = [...this.sinks].filter((s) => !s.congested());
    const shared = ready.filter((s) => !s.rowFiltered);
    if (shared.length > 0) await this.readShared(shared);
    for (const sink of ready) if (sink.rowFiltered) await this.readOwn(sink);
  }

  /** One read of every entry for the streams without row filters, each taking what it may see. */
  private async readShared(ready: ChangeStreamSink[]): Promise<void> {
    let sinks = ready;
    let since = Math.min(...sinks.map((s) => s.since));
    for (;;) {
      const read = await this.guard(sinks, () => this.feed.fetch('all', since, PAGE));
      if (!read) return;
      const { entries, head } = read;
      for (const row of entries) {
        const pos = Number(row.pos);
        for (const sink of sinks) {
          if (pos <= sink.since) continue;
          sink.since = pos;
          if (!sink.collections || sink.collections.has(row.collection))
            sink.send(changeEvent(this.feed.shape(row, sink.access)));
        }
        since = pos;
      }
      if (entries.length < PAGE) {
        for (const sink of sinks) sink.since = Math.max(sink.since, head);
        return;
      }
      sinks = sinks.filter((s) => !s.congested());
      if (sinks.length === 0) return;
    }
  }

  private async readOwn(sink: ChangeStreamSink): Promise<void> {
    for (;;) {
      const page = await this.guard([sink], () => this.feed.read(sink.selection, sink.since, PAGE, sink.access));
      if (!page) return;
      for (const { change } of page.changes) sink.send(changeEvent(change));
      sink.since = page.end;
      if (!page.hasNextPage || sink.congested()) return;
    }
  }

  /** Runs a read; a position trimmed meanwhile ends the streams at it (their clients resync). */
  private async guard<T>(sinks: ChangeStreamSink[], read: () => Promise<T>): Promise<T | undefined> {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof GoneException)) throw error;
      for (const sink of sinks) {
        sink.end();
        this.sinks.delete(sink);
      }
      return undefined;
    }
  }

  private async listen(): Promise<void> {
    if (this.embedded) {
      this.stopListening = await this.embedded.listen(CHANGES_CHANNEL, () => this.wake());
      return;
    }
    const client = await this.db.directConnections.connect(
      {
        // never through a transaction-mode pooler, where a LISTEN hears nothing
        connectionString: this.config.database.directUrl ?? this.config.databaseUrl,
        application_name: 'crm-record-service-listen',
      },
      (error, lost) => {
        this.logger.warn(`LISTEN connection lost: ${error.message}`);
        this.listener = undefined; // the next keep-alive tick listens again
        this.stopListening = undefined;
        lost.end().catch(() => undefined);
      },
    );
    client.on('notification', () => this.wake());
    try {
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined); // not left open, hearing nothing
      throw error;
    }
    this.stopListening = () => client.end();
  }
}
