import type { IncomingMessage, ServerResponse } from 'node:http';
import { inRequestContext } from '../tracing/server-spans';

/** When the response's request arrived (performance.now()). */
const STARTED = Symbol('requestStarted');
type Res = ServerResponse & { [STARTED]?: number };

/**
 * Told once per request, when its response is done or its client went away (`res.writableFinished`
 * tells which), with the time since the request arrived in milliseconds: the request log line
 * and the request metrics.
 */
export type ResponseObserver = (req: IncomingMessage, res: ServerResponse, durationMs: number) => void;

/**
 * The one middleware that times requests, mounted first (so a request refused before any route
 * is seen too): it notes the arrival time and adds a single `close` listener, shared by every
 * response, that calls each observer in turn: one listener, one property and one clock reading
 * per response, however many observers there are.
 */
export function observeResponses(
  observers: ResponseObserver[],
): (req: IncomingMessage, res: ServerResponse, next: () => void) => void {
  function onClose(this: Res): void {
    const durationMs = performance.now() - this[STARTED]!;
    // in the request's trace, if it has one (the log line carries its ids)
    inRequestContext(this.req, () => {
      for (const observer of observers) observer(this.req, this, durationMs);
    });
  }
  return (_req, res, next) => {
    (res as Res)[STARTED] = performance.now();
    res.on('close', onClose);
    next();
  };
}
