import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { createHmac, randomUUID } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../../core/config/app-config';
import { Db } from '../../core/database/db';
import { detached, inSpan, noteOutcome, Span, SpanKind } from '../../core/tracing/tracing';
import { deliveryStatements, DueDelivery } from './webhook-delivery.statements';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookSender } from './webhook-sender';
import { RefusedTargetError } from './webhook-target';

/** While a delivery is being sent, other dispatchers leave it alone for this long. */
const LEASE_MS = 60_000;
const BATCH = 20;
const TIMEOUT_MS = 5_000;

/** Signature header value: hex HMAC-SHA256 of `<timestamp>:<body>` with the webhook's secret. */
export function signWebhook(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex');
}

/**
 * Delivers the outbox. Each round claims due rows (webhook-delivery.statements.ts: several
 * instances share the work, each row goes to one), POSTs them with the contract's
 * headers and a stable `X-Delivery-Id`, then records the outcome: delivered, retry later with
 * exponential backoff and jitter (network error, timeout, 5xx, 429), or failed (a 3xx, since no
 * redirect is followed; other 4xx; a target refused as not public, see WebhookSender; or the
 * schedule exhausted; the row is kept with its last error). Rows survive restarts: a lease that
 * expires makes a delivery due again.
 */
@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;
  private readonly sender: WebhookSender;

  constructor(
    private readonly db: Db,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: WebhookMetrics,
  ) {
    this.sender = new WebhookSender(config.webhookAllowPrivateTargets);
  }

  onApplicationBootstrap(): void {
    if (this.config.webhookDispatch) this.schedule(0);
  }

  /**
   * On shutdown, before the pool closes: no new round; the deliveries in flight finish and their
   * outcome is recorded. Whatever is still due stays in the outbox for the next dispatcher.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    this.sender.close();
  }

  /**
   * Asks for a round soon (after a commit that enqueued deliveries). The rounds run outside the
   * trace of the request that woke them (each delivery continues its own write's).
   */
  wake(): void {
    if (this.config.webhookDispatch && !this.stopped && !this.running) detached(() => this.schedule(0))();
  }

  private schedule(delay: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.running = this.round()
        .catch((error: Error) => this.logger.warn(`dispatch round failed: ${error.message}`))
        .then((busy) => {
          this.running = undefined;
          if (!this.stopped) this.schedule(busy === true ? 0 : this.config.webhookPollMs);
        });
    }, delay);
    this.timer.unref();
  }

  /** One round; true when it found a full batch (more may be due). */
  private async round(): Promise<boolean> {
    const due = await deliveryStatements.claimDue(this.db, LEASE_MS / 1000, BATCH);
    await Promise.all(due.map((delivery) => this.deliver(delivery)));
    return due.length === BATCH;
  }

  /**
   * One attempt, in a span `webhook deliver` (tracing on) that continues the trace of the write
   * that enqueued it (its outbox row's `traceParent`); the POST's own span is its child, and sends
   * `traceparent` to the receiver.
   */
  private deliver(delivery: DueDelivery): Promise<void> {
    const attributes = {
      'webhook.id': delivery.webhookId,
      'webhook.delivery.id': delivery.id,
      'webhook.event': String(delivery.payload.eventName),
      'webhook.attempt': delivery.attempts + 1,
    };
    return inSpan('webhook deliver', SpanKind.CONSUMER, delivery.traceParent, attributes, (span) =>
      this.attempt(delivery, span),
    );
  }

  private async attempt(delivery: DueDelivery, span: Span | undefined): Promise<void> {
    const body = JSON.stringify({ targetUrl: delivery.targetUrl, webhookId: delivery.webhookId, ...delivery.payload });
    const timestamp = String(Date.now());
    let status: number | null = null;
    let error: string | null = null;
    let refused = false;
    const started = performance.now();
    try {
      status = await this.sender.post(
        delivery.targetUrl,
        body,
        {
          'content-type': 'application/json',
          'x-twenty-webhook-timestamp': timestamp,
          'x-twenty-webhook-signature': signWebhook(delivery.secret, timestamp, body),
          'x-twenty-webhook-nonce': randomUUID(),
          'x-delivery-id': delivery.id,
          'user-agent': 'crm-record-service-webhooks',
        },
        TIMEOUT_MS,
      );
      if (status >= 300 && status < 400) error = `HTTP ${status} (redirects are not followed)`;
    } catch (e) {
      refused = e instanceof RefusedTargetError;
      const { name, message } = e as Error;
      error = refused ? `target refused: ${message}` : name === 'TimeoutError' ? 'timeout after 5 s' : message;
    }
    const attempts = delivery.attempts + 1;
    const delivered = status !== null && status >= 200 && status < 300;
    // a refused target is refused again on every attempt: it fails at once, like a 4xx
    const retryable = !refused && (status === null || status === 429 || status >= 500);
    const schedule = this.config.webhookRetryScheduleMs;
    const outcome = delivered ? 'delivered' : !retryable || attempts > schedule.length ? 'failed' : 'retry';
    this.metrics.attempted(outcome, (performance.now() - started) / 1000);
    if (span)
      noteOutcome(
        span,
        { 'webhook.outcome': outcome, 'http.response.status_code': status ?? undefined },
        delivered ? null : (error ?? `HTTP ${status}`),
      );
    if (delivered) {
      await deliveryStatements.delivered(this.db, delivery.id, attempts, status!);
      return;
    }
    if (outcome === 'failed') {
      await deliveryStatements.failed(this.db, delivery.id, attempts, status, error ?? `HTTP ${status}`);
      this.logger.warn(
        `delivery ${delivery.id} failed for good after ${attempts} attempt(s): ${error ?? `HTTP ${status}`}`,
      );
      return;
    }
    const delay = schedule[attempts - 1] * (0.8 + Math.random() * 0.4); // +-20% jitter
    await deliveryStatements.retryLater(
      this.db,
      delivery.id,
      attempts,
      status,
      error ?? `HTTP ${status}`,
      delay / 1000,
    );
  }
}
