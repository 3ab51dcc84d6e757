import { BeforeApplicationShutdown, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection may stay open without sending a byte once the application closes. */
export const UNUSED_GRACE_MS = 1000;
/** How often, during the close, the connections are looked at. */
const SWEEP_MS = 100;

/**
 * Closes, once the application closes, the connections that have sent nothing for a while.
 *
 * Node's `server.close()` stops listening and ends idle keep-alive connections, but it waits for
 * a connection that was opened and has not sent a request yet (an HTTP client reconnecting after
 * an aborted request, a load balancer's or browser's pre-opened connection) until the server's
 * `headersTimeout` (60 s) passes, checked every 30 s: the close took up to 90 s. From the start
 * of the close, a connection that has not sent a byte `UNUSED_GRACE_MS` after it was accepted is
 * closed; one that sends its request within that time is served as usual. Requests in flight are
 * never cut: their connections have sent bytes.
 */
@Injectable()
export class UnusedConnections implements OnApplicationBootstrap, BeforeApplicationShutdown {
  /** Every open connection, with the time it was accepted. */
  private readonly accepted = new Map<Socket, number>();
  private sweeper?: NodeJS.Timeout;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return; // a command-line tool: no HTTP server
    server.on('connection', (socket: Socket) => {
      this.accepted.set(socket, Date.now());
      socket.once('close', () => this.accepted.delete(socket));
    });
    server.once('close', () => clearInterval(this.sweeper));
  }

  /** Runs just before the framework closes the listener. */
  beforeApplicationShutdown(): void {
    if (this.sweeper) return;
    this.sweep();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  private sweep(): void {
    const before = Date.now() - UNUSED_GRACE_MS;
    for (const [socket, at] of this.accepted) if (socket.bytesRead === 0 && at <= before) socket.destroy();
  }
}
