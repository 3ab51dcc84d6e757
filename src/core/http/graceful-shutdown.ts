import { INestApplication, Logger } from '@nestjs/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Db } from '../database/db';
import { DrainState } from '../health/drain-state';
import { stopTracing } from '../tracing/tracing';

/** No new request for this long (probes aside) means load balancers have stopped sending any. */
const QUIET_MS = 1000;
/** The drain before the listener closes takes at most this long, and at most half the shutdown timeout. */
const MAX_DRAIN_MS = 5000;
/** Probes keep arriving while an instance drains: they are not traffic. */
const PROBE = /^\/rest\/(ready|health)(\?|$)/;

/**
 * SIGTERM / SIGINT, in two steps so that no client sees a refused or reset connection:
 * 1. drain: readiness answers 503 at once (load balancers take the instance out) while requests
 *    are still served, each response closing its connection; this lasts until no request has
 *    arrived for QUIET_MS, at most min(MAX_DRAIN_MS, timeoutMs / 2);
 * 2. close: stop accepting connections, let in-flight requests finish (until `timeoutMs` after
 *    the signal, then their connections are closed and their statements canceled), stop the webhook dispatcher once its
 *    deliveries in flight are recorded, close the database pool, exit 0.
 * A second signal, or a shutdown that still hangs 5 s after the timeout (a statement stuck in
 * the database), exits 1: not a clean stop.
 */
export function exitGracefullyOnSignals(app: INestApplication, timeoutMs: number): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  const drain = app.get(DrainState);
  let closing = false;
  let lastRequestAt = 0;
  // first listener: runs before the framework's handler, so the header is set before any write
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!PROBE.test(req.url ?? '')) lastRequestAt = Date.now();
    // while draining, no keep-alive connection is left for a client to reuse as the listener closes
    if (closing) res.setHeader('connection', 'close');
  });

  const close = () => {
    // keep-alive clients would hold the process until they close: drop connections once idle
    const idle = setInterval(() => server.closeIdleConnections?.(), 100);
    idle.unref();
    app.close().then(
      () => {
        clearInterval(idle);
        logger.log('closed');
        // the spans not exported yet go first (tracing on; at most 2 s)
        void stopTracing().then(() => process.exit(0));
      },
      (error: Error) => {
        logger.error(`shutdown failed: ${error.message}`);
        process.exit(1);
      },
    );
  };

  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    drain.start();
    const signalledAt = Date.now();
    const maxDrainMs = Math.min(MAX_DRAIN_MS, Math.floor(timeoutMs / 2));
    logger.log(
      `${signal}: readiness 503; serving until no request arrives for ${QUIET_MS} ms (at most ${maxDrainMs} ms), ` +
        `then no new connections; in-flight requests get ${timeoutMs} ms from now`,
    );
    const force = setTimeout(() => {
      logger.warn('in-flight requests still running at the shutdown timeout: closing their connections');
      server.closeAllConnections?.();
      // their statements too: none may commit after its client was cut off (see Db.cancelRunning)
      app
        .get(Db)
        .cancelRunning()
        .then(
          (canceled) => canceled && logger.warn(`canceled ${canceled} statement(s) of those requests`),
          (error: Error) => logger.warn(`could not cancel their statements: ${error.message}`),
        );
    }, timeoutMs);
    force.unref();
    const deadline = setTimeout(() => {
      logger.error('shutdown did not complete in time');
      process.exit(1);
    }, timeoutMs + 5_000);
    deadline.unref();
    const poll = setInterval(() => {
      const now = Date.now();
      if (now - Math.max(lastRequestAt, signalledAt) < QUIET_MS && now - signalledAt < maxDrainMs) return;
      clearInterval(poll);
      logger.log(`drained after ${now - signalledAt} ms: closing the listener`);
      close();
    }, 50);
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}
