import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the write that enqueued a webhook delivery (API.md section 20, "Traces"):
 * the W3C `traceparent` of its request's span, written with tracing on (NULL otherwise), which
 * the delivery's span continues and its POST sends on. Nullable, no default: a metadata-only
 * change, instant whatever the size of the outbox.
 */
export class WebhookTraceParent1795770000000 implements MigrationInterface {
  name = 'WebhookTraceParent1795770000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhookDelivery" ADD "traceParent" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "webhookDelivery" DROP COLUMN "traceParent"`);
  }
}
