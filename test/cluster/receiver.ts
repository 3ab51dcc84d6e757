import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A webhook receiver on 127.0.0.1 that answers 200 and remembers each delivery. */
export class WebhookReceiver {
  /** Receptions of each X-Delivery-Id (ms timestamps). */
  readonly byDelivery = new Map<string, number[]>();
  /** The delivery ids of each record id seen in payloads. */
  readonly byRecord = new Map<string, Set<string>>();
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        const id = String(req.headers['x-delivery-id']);
        const recordId = (JSON.parse(body) as { record?: { id?: string } }).record?.id ?? '?';
        this.byDelivery.set(id, [...(this.byDelivery.get(id) ?? []), Date.now()]);
        this.byRecord.set(recordId, (this.byRecord.get(recordId) ?? new Set()).add(id));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Deliveries received more than once. */
  duplicates(): { id: string; times: number[] }[] {
    return [...this.byDelivery].filter(([, times]) => times.length > 1).map(([id, times]) => ({ id, times }));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
