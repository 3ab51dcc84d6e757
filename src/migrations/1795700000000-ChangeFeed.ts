import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed (API.md section 15): its own table, not a collection. `seq` is the write order,
 * `xid` the writing transaction, `pos` the feed position, assigned later in commit order by the
 * sequencer (src/core/repository/change-feed.statements.ts). A statement-level trigger notifies
 * `crm_changes` at commit (none on rollback) so every instance's open streams wake up.
 */
export class ChangeFeed1795700000000 implements MigrationInterface {
  name = 'ChangeFeed1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE SEQUENCE "_changes_pos_seq"`);
    await queryRunner.query(
      `CREATE TABLE "_changes" ("seq" bigserial PRIMARY KEY, "xid" xid8 NOT NULL DEFAULT pg_current_xact_id(), ` +
        `"pos" bigint UNIQUE, "eventName" text NOT NULL, "collection" text NOT NULL, "recordId" uuid NOT NULL, ` +
        `"occurredAt" timestamp with time zone NOT NULL DEFAULT now(), "apiKeyId" uuid, "record" jsonb, "updatedFields" jsonb)`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_changes_unsequenced" ON "_changes" ("seq") WHERE "pos" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_changes_occurred" ON "_changes" ("occurredAt")`);
    await queryRunner.query(
      `CREATE TABLE "_changes_state" ("id" int PRIMARY KEY CHECK ("id" = 1), "trimmedPos" bigint NOT NULL DEFAULT 0)`,
    );
    await queryRunner.query(`INSERT INTO "_changes_state" ("id", "trimmedPos") VALUES (1, 0)`);
    await queryRunner.query(
      `CREATE FUNCTION crm_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('crm_changes', ''); RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "changes_notify" AFTER INSERT ON "_changes" FOR EACH STATEMENT EXECUTE FUNCTION crm_changes_notify()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "changes_notify" ON "_changes"`);
    await queryRunner.query(`DROP FUNCTION crm_changes_notify()`);
    await queryRunner.query(`DROP TABLE "_changes_state"`);
    await queryRunner.query(`DROP TABLE "_changes"`);
    await queryRunner.query(`DROP SEQUENCE "_changes_pos_seq"`);
  }
}
