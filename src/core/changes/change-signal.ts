import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { Db } from '../database/db';
import { NOTIFY_CHANGES_SQL } from '../repository/change-feed.statements';

/** At most one notification per this many ms per instance: the streams read every entry since their position anyway. */
const INTERVAL_MS = 50;

/**
 * Tells the open change streams of every instance that new entries were committed: a NOTIFY
 * (PostgreSQL; PGlite's listen API) sent after the write committed, never inside it: a NOTIFY in
 * the write's transaction makes PostgreSQL serialise every notifying commit on its notification
 * queue (create one lost 8 % of its req/s to it). Commits close together share one notification
 * (the first at once, then at most one per 50 ms). Should one be lost (the instance dies between
 * commit and notification), the streams' own periodic read (ChangeStreams) still delivers the change.
 */
@Injectable()
export class ChangeSignal implements BeforeApplicationShutdown {
  private readonly logger = new Logger('ChangeSignal');
  private last = 0;
  private timer?: NodeJS.Timeout;
  private sending?: Promise<void>;

  constructor(private readonly db: Db) {}

  /** A write that added feed entries has committed (bound: it is handed to the event bus as is). */
  readonly committed = (): void => {
    if (this.timer) return;
    const wait = this.last + INTERVAL_MS - Date.now();
    if (wait <= 0 && !this.sending) return void this.send();
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.committed();
      },
      Math.max(wait, 10),
    );
    this.timer.unref();
  };

  /** Sends the notification still due before the pool closes. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      await this.send();
    }
    await this.sending;
  }

  private send(): Promise<void> {
    this.last = Date.now();
    this.sending = this.db
      .query(NOTIFY_CHANGES_SQL)
      .then(() => undefined)
      .catch((error: Error) => this.logger.warn(`change notification failed: ${error.message}`))
      .finally(() => (this.sending = undefined));
    return this.sending;
  }
}
