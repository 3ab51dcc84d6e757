import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `_import_keys` looked up by its key first. Every key of a running job has the same `importId`:
 * with `("importId", "key")` as its primary key the planner could read all of the job's keys by
 * the first column and filter them (a checkpoint's lookup grew with the rows already imported:
 * 100 ms to 560 ms over 50,000 rows). With `("key", "importId")` a lookup probes its keys only.
 * The keys are needed only while a job runs: they are deleted when it ends (and here, those of
 * finished jobs), so nothing reads them by job alone and the foreign key's cascade has no work left.
 */
export class ImportKeysByKey1795740000000 implements MigrationInterface {
  name = 'ImportKeysByKey1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `DELETE FROM "_import_keys" k USING "_imports" i WHERE i."id" = k."importId" AND i."state" NOT IN ('queued', 'running')`,
    );
    await queryRunner.query(`ALTER TABLE "_import_keys" DROP CONSTRAINT "_import_keys_importId_fkey"`);
    await queryRunner.query(`ALTER TABLE "_import_keys" DROP CONSTRAINT "_import_keys_pkey"`);
    await queryRunner.query(`ALTER TABLE "_import_keys" ADD PRIMARY KEY ("key", "importId")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "_import_keys" DROP CONSTRAINT "_import_keys_pkey"`);
    await queryRunner.query(`ALTER TABLE "_import_keys" ADD PRIMARY KEY ("importId", "key")`);
    await queryRunner.query(
      `ALTER TABLE "_import_keys" ADD FOREIGN KEY ("importId") REFERENCES "_imports" ("id") ON DELETE CASCADE`,
    );
  }
}
