import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import { Metrics } from '../metrics/metrics';
import { sameSecret } from '../security/same-secret';

const OPENMETRICS = 'application/openmetrics-text';

/**
 * `GET /metrics` on a listener of its own (`METRICS_PORT`, default 9464; 0: off), never the API
 * port: a load balancer in front of the API does not expose it, and a scrape never queues behind
 * API requests. Prometheus text, or OpenMetrics when the scraper's Accept asks for it; with
 * `METRICS_TOKEN` a scrape must send `Authorization: Bearer <token>`. Starts the refresh of the
 * gauges read from the database, every METRICS_REFRESH_MS.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Metrics');
  private server?: Server;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /** The port it listens on (the configured one, or the one the system chose for 0 in tests). */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const { port, host, refreshMs } = this.config.metrics;
    if (port === 0) return;
    void this.metrics.start(refreshMs, (task, error) =>
      this.logger.warn(`refreshing ${task} failed: ${(error as Error).message}`),
    );
    const server = createServer((req, res) => void this.answer(req, res));
    server.keepAliveTimeout = 65_000; // longer than a scraper's idle time: connections are reused
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    server.on('error', (error) => this.logger.error(`metrics listener: ${error.message}`));
    this.server = server;
    this.logger.log(`metrics on http://${host}:${this.port}/metrics`);
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    const text = (status: number, body: string, headers: Record<string, string> = {}): void => {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(body);
    };
    if (path !== '/metrics') return text(404, 'Not found: the metrics are at /metrics\n');
    if (req.method !== 'GET' && req.method !== 'HEAD') return text(405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    const token = this.config.metrics.token;
    if (token !== undefined) {
      const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (given === undefined || !sameSecret(given, token))
        return text(401, 'Unauthorized: send Authorization: Bearer <METRICS_TOKEN>\n', {
          'www-authenticate': 'Bearer realm="metrics"',
        });
    }
    try {
      const { contentType, body } = await this.metrics.render((req.headers.accept ?? '').includes(OPENMETRICS));
      res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (error) {
      this.logger.error(`rendering the metrics failed: ${(error as Error).message}`);
      text(500, 'Internal error\n');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.metrics.stop();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
