import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every hard-deleted attachment with a stored file enters the `fileDeletion` outbox in the
 * transaction of its delete, whatever deleted it: a delete of attachments, or the cascade of a
 * hard-deleted person, company or opportunity (foreign keys ON DELETE CASCADE, which no statement
 * of the service names). A statement-level trigger over the deleted rows (one INSERT per
 * statement, set-based); the object key is the one the upload used, made from the record id.
 */
export class FileDeletionOnCascade1795720000000 implements MigrationInterface {
  name = 'FileDeletionOnCascade1795720000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION crm_attachment_files_deleted() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `INSERT INTO "fileDeletion" ("objectKey") SELECT substr(g."id"::text, 1, 2) || '/' || substr(g."id"::text, 3, 2) || '/' || g."id"::text ` +
        `FROM gone g WHERE g."checksum" IS NOT NULL; RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "attachment_files_deleted" AFTER DELETE ON "attachment" REFERENCING OLD TABLE AS gone ` +
        `FOR EACH STATEMENT EXECUTE FUNCTION crm_attachment_files_deleted()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "attachment_files_deleted" ON "attachment"`);
    await queryRunner.query(`DROP FUNCTION crm_attachment_files_deleted()`);
  }
}
