import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { LookupFunction } from 'node:net';
import { publicOnlyLookup, RefusedTargetError, refusedTarget } from './webhook-target';

/**
 * Sends webhook POSTs over node:http(s) with keep-alive connections. Without `allowPrivate`, each
 * connection resolves its host through `publicOnlyLookup` and an IP literal is judged before any
 * connection, so a delivery never reaches a non-public address whatever the DNS says now. No
 * redirect is followed (node:http never follows one): a 3xx is an answer like any other.
 */
export class WebhookSender {
  private readonly agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  private readonly lookup?: LookupFunction;

  constructor(allowPrivate: boolean, lookup: LookupFunction = publicOnlyLookup()) {
    this.lookup = allowPrivate ? undefined : lookup;
  }

  /**
   * POSTs `body` to `targetUrl`; resolves with the answer's status as soon as it arrives.
   * Rejects with a RefusedTargetError (nothing sent), the signal's TimeoutError or a network error.
   */
  post(targetUrl: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
    let url: URL;
    try {
      url = new URL(targetUrl);
    } catch {
      return Promise.reject(new RefusedTargetError(`${targetUrl} is not a URL`));
    }
    const refused = refusedTarget(url, this.lookup === undefined);
    if (refused) return Promise.reject(new RefusedTargetError(refused));
    const secure = url.protocol === 'https:';
    const signal = AbortSignal.timeout(timeoutMs);
    return new Promise<number>((resolve, reject) => {
      const fail = (error: Error) => reject(signal.aborted ? (signal.reason as Error) : error);
      const request = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: 'POST',
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
          agent: secure ? this.agents.https : this.agents.http,
          lookup: this.lookup,
          signal,
        },
        (response) => {
          // the status is the outcome; the body is drained (not kept) so the connection can be reused
          response.on('error', () => undefined);
          response.resume();
          resolve(response.statusCode!);
        },
      );
      request.on('error', fail);
      request.end(body);
    });
  }

  /** Closes the kept-alive connections (at shutdown). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
