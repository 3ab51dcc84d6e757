import { INestApplication, Logger } from '@nestjs/common';
import type { Server } from 'node:http';

/**
 * SIGTERM / SIGINT: stop accepting connections, let in-flight requests finish (at most
 * `timeoutMs`, then their connections are closed), stop the webhook dispatcher once its deliveries
 * in flight are recorded, close the database pool, exit 0. A second signal, or a shutdown that
 * still hangs 5 s after the timeout (a statement stuck in the database), exits 1: not a clean stop.
 */
export function exitGracefullyOnSignals(app: INestApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    logger.log(`${signal}: no new connections; finishing in-flight requests (at most ${timeoutMs} ms)`);
    const server = app.getHttpServer() as Server;
    // keep-alive clients would hold the process until they close: drop connections once idle
    const idle = setInterval(() => server.closeIdleConnections?.(), 100);
    idle.unref();
    const force = setTimeout(() => {
      logger.warn('in-flight requests still running at the shutdown timeout: closing their connections');
      server.closeAllConnections?.();
    }, timeoutMs);
    force.unref();
    const deadline = setTimeout(() => {
      logger.error('shutdown did not complete in time');
      process.exit(1);
    }, timeoutMs + 5_000);
    deadline.unref();
    app.close().then(
      () => {
        clearTimeout(force);
        clearInterval(idle);
        logger.log('closed');
        process.exit(0);
      },
      (error: Error) => {
        logger.error(`shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
