import { Injectable } from '@nestjs/common';
import { Queryable } from '../database/db';

/** What the end of an import job tells its subscribers: `import.completed` or `import.failed`, and the job as the API shows it. */
export interface ImportEnd {
  eventName: 'import.completed' | 'import.failed';
  job: Record<string, unknown>;
}

/** A module that acts on the end of import jobs (the webhooks' summary): rows written in the job's last transaction. */
export interface ImportEndSubscriber {
  ended(tx: Queryable, end: ImportEnd): Promise<void>;
}

/**
 * The end of import jobs (API.md section 17), for the modules that act on it: the webhooks
 * module sends one `import.completed` / `import.failed` per job whose `webhooks` is `summary`.
 * Core names none of them: they subscribe at start-up.
 */
@Injectable()
export class ImportEvents {
  private readonly subscribers: ImportEndSubscriber[] = [];

  subscribe(subscriber: ImportEndSubscriber): void {
    this.subscribers.push(subscriber);
  }

  async ended(tx: Queryable, end: ImportEnd): Promise<void> {
    for (const subscriber of this.subscribers) await subscriber.ended(tx, end);
  }
}
