import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Imports (API.md section 17): their own tables, not collections. `_imports` holds each job, its
 * options, state and counters, the key of its stored file while it runs, and `resumeLine`: the
 * last line whose rows are committed (an `atomic=false` job resumes after it), and `claim`: the
 * token of the instance's hold on a running job (every write of the job names it, so an instance
 * that lost its lease can no longer commit anything). `_import_errors`
 * holds every rejected row in line order; `_import_keys` the id and unique values of the rows a
 * job has read, with their lines, so a later row of the same file that names the same record is
 * told apart (`DUPLICATE_IN_FILE`) whatever checkpoint it falls in.
 */
export class Imports1795730000000 implements MigrationInterface {
  name = 'Imports1795730000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "_imports" ("id" uuid PRIMARY KEY, "collection" text NOT NULL, "operation" text NOT NULL, ` +
        `"format" text NOT NULL, "options" jsonb NOT NULL, "state" text NOT NULL DEFAULT 'queued', ` +
        `"read" integer NOT NULL DEFAULT 0, "created" integer NOT NULL DEFAULT 0, "updated" integer NOT NULL DEFAULT 0, ` +
        `"unchanged" integer NOT NULL DEFAULT 0, "failed" integer NOT NULL DEFAULT 0, "unprocessed" integer NOT NULL DEFAULT 0, ` +
        `"bytes" bigint NOT NULL, "objectKey" text, "apiKeyId" uuid, "message" text, "resumeLine" integer NOT NULL DEFAULT 0, ` +
        `"cancelRequested" boolean NOT NULL DEFAULT false, "leaseUntil" timestamp with time zone, "claim" uuid, ` +
        `"idempotencyKey" text, "fingerprint" text, ` +
        `"createdAt" timestamp with time zone NOT NULL DEFAULT clock_timestamp(), "startedAt" timestamp with time zone, ` +
        `"finishedAt" timestamp with time zone)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_imports_created" ON "_imports" ("createdAt" DESC, "id" DESC)`);
    await queryRunner.query(
      `CREATE INDEX "IDX_imports_key_created" ON "_imports" ("apiKeyId", "createdAt" DESC, "id" DESC)`,
    );
    await queryRunner.query(
      `CREATE INDEX "IDX_imports_active" ON "_imports" ("createdAt") WHERE "state" IN ('queued', 'running')`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "IDX_imports_idempotency" ON "_imports" ("apiKeyId", "idempotencyKey") WHERE "idempotencyKey" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_imports_finished" ON "_imports" ("finishedAt")`);
    await queryRunner.query(
      `CREATE TABLE "_import_errors" ("importId" uuid NOT NULL REFERENCES "_imports" ("id") ON DELETE CASCADE, ` +
        `"line" integer NOT NULL, "seq" integer NOT NULL, "column" text, "code" text NOT NULL, "message" text NOT NULL, ` +
        `PRIMARY KEY ("importId", "line", "seq"))`,
    );
    await queryRunner.query(
      `CREATE TABLE "_import_keys" ("importId" uuid NOT NULL REFERENCES "_imports" ("id") ON DELETE CASCADE, ` +
        `"key" text NOT NULL, "line" integer NOT NULL, PRIMARY KEY ("importId", "key"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "_import_keys"`);
    await queryRunner.query(`DROP TABLE "_import_errors"`);
    await queryRunner.query(`DROP TABLE "_imports"`);
  }
}
