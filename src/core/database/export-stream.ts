import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { Pool, PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { inlineValues } from './sql';

/** A statement with its bound values. */
export interface Statement {
  text: string;
  values: unknown[];
}

/** An open export: the snapshot it reads (`pg_current_snapshot()`), and its bytes. */
export interface ExportSource {
  snapshot: string;
  stream: Readable;
}

/**
 * One consistent snapshot for the whole export: a read-only REPEATABLE READ transaction whose
 * first statement reads the snapshot (the feed position of what the export holds). An export has
 * no time limit of its own (its client sets the pace); each FETCH of a cursor is one statement.
 */
const BEGIN = 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY';

/** A pool connection in the export's transaction, released once whatever happens. */
class ExportConnection {
  private released = false;
  private broken?: Error;
  private readonly onError = (error: Error) => (this.broken = error);

  private constructor(readonly client: PoolClient) {
    // a connection that dies while checked out emits 'error': without a listener, a crash
    client.on('error', this.onError);
  }

  static async open(pool: Pool, unlimited: boolean): Promise<{ connection: ExportConnection; snapshot: string }> {
    const connection = new ExportConnection(await pool.connect());
    try {
      await connection.client.query(BEGIN);
      const [{ snapshot }] = (await connection.client.query('SELECT pg_current_snapshot()::text AS snapshot')).rows;
      if (unlimited) await connection.client.query('SET LOCAL statement_timeout = 0');
      return { connection, snapshot };
    } catch (error) {
      await connection.end(false);
      throw error;
    }
  }

  /**
   * Ends the transaction and gives the connection back: COMMIT after a complete export; else
   * ROLLBACK, or (`drop`: a COPY cut short, the connection still streaming) the connection is
   * closed, which stops the statement on the server.
   */
  async end(complete: boolean, drop = false): Promise<void> {
    if (this.released) return;
    this.released = true;
    if (!drop && !this.broken) {
      try {
        await this.client.query(complete ? 'COMMIT' : 'ROLLBACK');
      } catch (error) {
        this.broken = error as Error;
      }
    }
    this.client.off('error', this.onError);
    this.client.release(drop ? new Error('export stopped') : this.broken);
    // a server streaming a COPY reads nothing until it has sent it all: only a closed socket stops it
    if (drop) (this.client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
  }
}

/** Waits until `stream` has its first bytes (or ended): a failing statement rejects before any byte is sent. */
function firstBytes(stream: Readable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('readable', ready).off('error', done).off('end', ready);
      if (error) reject(error);
      else resolve();
    };
    const ready = () => done();
    stream.once('readable', ready).once('error', done).once('end', ready);
  });
}

/**
 * Streams the rows of a statement whose one column is a line of text (a record's JSON) with
 * `COPY (...) TO STDOUT` on a connection of the pool (PostgreSQL): lines of bytes as the server
 * sends them, paced by the reader (the connection's socket pauses while the reader does). COPY
 * takes no bound parameters: the values are written into the statement as literals
 * (`inlineValues`). CSV mode with delimiter and quote characters that JSON never holds unescaped
 * leaves each line as it is.
 */
export async function copyLines(pool: Pool, statement: Statement): Promise<ExportSource> {
  const text = inlineValues(statement.text, statement.values);
  const { connection, snapshot } = await ExportConnection.open(pool, true);
  const copy = connection.client.query(
    copyTo(`COPY (${text}) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`),
  );
  let ended = false;
  copy.once('end', () => (ended = true));
  // pg-copy-streams emits the error of a connection closed under it even when destroyed
  copy.on('error', () => undefined);
  // destroyed by the response (client gone) or failed: the connection is closed, never reused mid-COPY
  copy.once('close', () => void connection.end(ended, !ended));
  try {
    await firstBytes(copy);
  } catch (error) {
    copy.destroy();
    throw error;
  }
  return { snapshot, stream: copy };
}

/**
 * Streams the rows of a statement through a server-side cursor (`DECLARE ... CURSOR`, `FETCH n`),
 * each batch rendered to text by `render`: for PGlite, whose connection is not a socket COPY could
 * stream from, and for rows decoded in Node. The next batch is fetched when the reader wants more.
 */
export async function cursorLines<R>(
  pool: Pool,
  statement: Statement,
  batch: number,
  render: (rows: R[]) => string,
): Promise<ExportSource> {
  const { connection, snapshot } = await ExportConnection.open(pool, false);
  const { client } = connection;
  let pending: Promise<unknown> = Promise.resolve();
  const fetch = async (): Promise<R[]> => (await client.query(`FETCH ${batch} FROM "export_rows"`)).rows as R[];
  const stream = new Readable({
    read() {
      pending = fetch().then(
        (rows) => {
          if (rows.length === 0) {
            void connection.end(true).then(
              () => this.push(null),
              (error: Error) => this.destroy(error),
            );
          } else this.push(render(rows));
        },
        (error: Error) => this.destroy(error),
      );
    },
    destroy(error, callback) {
      // after the fetch in flight: a connection runs one statement at a time
      void pending.finally(() => connection.end(false)).then(() => callback(error), callback);
    },
  });
  try {
    await client.query(`DECLARE "export_rows" NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
    await firstBytes(stream);
  } catch (error) {
    stream.destroy();
    await connection.end(false);
    throw error;
  }
  return { snapshot, stream };
}
