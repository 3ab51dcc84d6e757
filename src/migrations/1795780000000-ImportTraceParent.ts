import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The trace context of the request that queued an import (API.md section 20, "Traces"): the W3C
 * `traceparent` of its span, written with tracing on (NULL otherwise). The job's run continues it,
 * so the statements of the job and the webhooks its records cause are in the request's trace.
 * Nullable, no default: a metadata-only change, instant whatever the number of jobs.
 */
export class ImportTraceParent1795780000000 implements MigrationInterface {
  name = 'ImportTraceParent1795780000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "_imports" ADD "traceParent" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "_imports" DROP COLUMN "traceParent"`);
  }
}
