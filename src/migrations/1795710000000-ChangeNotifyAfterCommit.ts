import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed's notification leaves the writers' transactions: a NOTIFY inside a transaction
 * makes PostgreSQL serialise the commits of every notifying transaction on its notification
 * queue, which cost single-record writes 8-11 % of their throughput. The service now notifies
 * after the commit (src/core/changes/change-signal.ts), so the statement-level trigger goes.
 */
export class ChangeNotifyAfterCommit1795710000000 implements MigrationInterface {
  name = 'ChangeNotifyAfterCommit1795710000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "changes_notify" ON "_changes"`);
    await queryRunner.query(`DROP FUNCTION crm_changes_notify()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE FUNCTION crm_changes_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('crm_changes', ''); RETURN NULL; END $$`,
    );
    await queryRunner.query(
      `CREATE TRIGGER "changes_notify" AFTER INSERT ON "_changes" FOR EACH STATEMENT EXECUTE FUNCTION crm_changes_notify()`,
    );
  }
}
