import { Client, ClientConfig } from 'pg';

/**
 * The connections the service opens outside its pools, each a `pg` client of its own: the change
 * streams' LISTEN connection and the connections that hold a session advisory lock (on
 * `DATABASE_DIRECT_URL` when set: a transaction-mode pooler can carry neither). They count
 * towards the server's connections like the pools' do, so they are counted here for the `direct`
 * pool of the `db_client_connections` gauge (pool-metrics.ts).
 */
export class DirectConnections {
  private count = 0;

  /** The clients connecting or connected, not yet ended. */
  get open(): number {
    return this.count;
  }

  /**
   * A connected client, counted until it ends (`end()` or a lost connection). Its `error` events
   * go to `onError` from before it connects: an `error` event without a listener crashes Node.
   */
  async connect(config: ClientConfig, onError: (error: Error, client: Client) => void): Promise<Client> {
    const client = new Client(config);
    client.on('error', (error: Error) => onError(error, client));
    this.count++;
    let counted = true;
    const uncount = () => {
      if (counted) this.count--;
      counted = false;
    };
    client.once('end', uncount);
    try {
      await client.connect();
    } catch (error) {
      uncount();
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }
}
