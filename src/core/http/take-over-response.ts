import type { ServerResponse } from 'node:http';

/** Fastify's reply: the Node response under it, the headers set on it so far, and hijack. */
export interface FastifyReply {
  raw: ServerResponse;
  hijack(): void;
  getHeaders(): Record<string, string | number | string[] | undefined>;
}

/**
 * The Node response a handler writes its answer to itself (a stream, the MCP transport). Express
 * hands it as is; Fastify a reply around it, which is hijacked, and the headers already set on the
 * reply (rate limits, request id) are copied to the Node response, as Fastify would have sent them.
 */
export function takeOverResponse(res: ServerResponse | FastifyReply): ServerResponse {
  if (!('raw' in res && 'hijack' in res)) return res;
  for (const [name, value] of Object.entries(res.getHeaders())) if (value !== undefined) res.raw.setHeader(name, value);
  res.hijack();
  return res.raw;
}

/**
 * The headers of a Server-Sent Events answer (change streams, import progress): not cached, not
 * buffered by a proxy, and its connection not reused (when it ends, the socket closes with it).
 */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  connection: 'close',
} as const;
