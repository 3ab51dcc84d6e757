import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables that grow to millions of rows: their visibility map kept fresh for index-only counts. */
const LARGE_TABLES = ['person', 'company', 'opportunity', 'task', 'note', 'timelineActivity', 'auditLog', 'message'];

/**
 * Counts that PostgreSQL answers from an index (API.md section 18):
 * - the partial `(column, id) WHERE "deletedAt" IS NULL` indexes of the fields declared `indexed`
 *   (generated from the entities): a filter on one of them and the count of its matches read from
 *   the index alone;
 * - autovacuum settings of the large tables: an index-only scan skips the heap only for the pages
 *   the visibility map marks all-visible, which a VACUUM sets. PostgreSQL's defaults vacuum a table
 *   after 20 % of it changed (200,000 rows of a million); here after 2 %, and analyze as often.
 */
export class FilterIndexes1795760000000 implements MigrationInterface {
  name = 'FilterIndexes1795760000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX "IDX_company_employees_live" ON "company"  ("employees", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_company_annualRecurringRevenueAmountMicros_live" ON "company"  ("annualRecurringRevenueAmountMicros", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_company_addressAddressCity_live" ON "company"  ("addressAddressCity", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_opportunity_amountAmountMicros_live" ON "opportunity"  ("amountAmountMicros", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_opportunity_closeDate_live" ON "opportunity"  ("closeDate", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_opportunity_stage_live" ON "opportunity"  ("stage", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_person_jobTitle_live" ON "person"  ("jobTitle", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_person_city_live" ON "person"  ("city", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_task_dueAt_live" ON "task"  ("dueAt", "id") WHERE "deletedAt" IS NULL`);
    await queryRunner.query(`CREATE INDEX "IDX_task_status_live" ON "task"  ("status", "id") WHERE "deletedAt" IS NULL`);
    for (const table of LARGE_TABLES)
      await queryRunner.query(
        `ALTER TABLE "${table}" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_insert_scale_factor = 0.02, autovacuum_analyze_scale_factor = 0.02)`,
      );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of LARGE_TABLES)
      await queryRunner.query(
        `ALTER TABLE "${table}" RESET (autovacuum_vacuum_scale_factor, autovacuum_vacuum_insert_scale_factor, autovacuum_analyze_scale_factor)`,
      );
    await queryRunner.query(`DROP INDEX "public"."IDX_task_status_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_task_dueAt_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_person_city_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_person_jobTitle_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_opportunity_stage_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_opportunity_closeDate_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_opportunity_amountAmountMicros_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_company_addressAddressCity_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_company_annualRecurringRevenueAmountMicros_live"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_company_employees_live"`);
  }
}
