import { createServer, Server, Socket, connect } from 'node:net';
import { freePort } from './child-server';

/**
 * A failover endpoint for tests: a TCP port on 127.0.0.1 that forwards every new connection to
 * the server it currently points at (what a Kubernetes operator's read-write service or HAProxy
 * in front of Patroni is to the service). `pointTo` moves it, and cuts the connections it carried.
 */
export class TcpSwitch {
  private readonly open = new Set<Socket>();

  private constructor(
    readonly port: number,
    private readonly server: Server,
    private target: number,
  ) {}

  static async start(target: number): Promise<TcpSwitch> {
    const port = await freePort();
    const server = createServer();
    const self = new TcpSwitch(port, server, target);
    server.on('connection', (client) => self.forward(client));
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return self;
  }

  url(database = 'postgres'): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  pointTo(target: number): void {
    this.target = target;
    for (const socket of this.open) socket.destroy();
  }

  async stop(): Promise<void> {
    for (const socket of this.open) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private forward(client: Socket): void {
    const upstream = connect(this.target, '127.0.0.1');
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      this.open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        this.open.delete(a);
        b.destroy();
      });
      a.pipe(b);
    }
  }
}
