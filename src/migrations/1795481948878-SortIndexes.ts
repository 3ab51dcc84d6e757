import { MigrationInterface, QueryRunner } from "typeorm";

export class SortIndexes1795481948878 implements MigrationInterface {
    name = 'SortIndexes1795481948878'

    public async up(queryRunner: QueryRunner): Promise<void> {
        // one-column label indexes become keyset sort indexes (column, id): same lookups, and
        // every order_by direction on them is an index scan (issue 14, fix 4)
        await queryRunner.query(`DROP INDEX "public"."IDX_a76c5cd486f7779bd9c319afd2"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_13d4bfef121d83362bb909c1ac"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_98668a28df419d460a70500d7d"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_d509a97a8e3ba2c888c8a1dff3"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_cf95c3ffc142e15064e03479bd"`);
        await queryRunner.query(`CREATE INDEX "IDX_4b406e52a41932f2d3cd9bf382" ON "company"  ("name", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_9f007f2a72b1043828e82dea58" ON "company"  ("domainNamePrimaryLinkUrl", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_e72bbabeb51ea0d9830af141b8" ON "person"  ("nameFirstName", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_7ba5df3ad48a3656b5ec5d5e52" ON "person"  ("nameLastName", "id") `);
        await queryRunner.query(`CREATE INDEX "IDX_bc51ee15a2c78cace27ac1878a" ON "person"  ("emailsPrimaryEmail", "id") `);
        // nullable sort columns: the (column NULLS FIRST, id) twin for AscNullsFirst / DescNullsLast
        // (written by hand: TypeORM cannot express NULLS FIRST; declared with synchronize: false)
        await queryRunner.query(`CREATE INDEX "IDX_person_nameFirstName_nulls_first" ON "person" ("nameFirstName" NULLS FIRST, "id")`);
        await queryRunner.query(`CREATE INDEX "IDX_person_nameLastName_nulls_first" ON "person" ("nameLastName" NULLS FIRST, "id")`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."IDX_person_nameLastName_nulls_first"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_person_nameFirstName_nulls_first"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_bc51ee15a2c78cace27ac1878a"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_7ba5df3ad48a3656b5ec5d5e52"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_e72bbabeb51ea0d9830af141b8"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_9f007f2a72b1043828e82dea58"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_4b406e52a41932f2d3cd9bf382"`);
        await queryRunner.query(`CREATE INDEX "IDX_cf95c3ffc142e15064e03479bd" ON "person" USING btree ("emailsPrimaryEmail") `);
        await queryRunner.query(`CREATE INDEX "IDX_d509a97a8e3ba2c888c8a1dff3" ON "person" USING btree ("nameLastName") `);
        await queryRunner.query(`CREATE INDEX "IDX_98668a28df419d460a70500d7d" ON "person" USING btree ("nameFirstName") `);
        await queryRunner.query(`CREATE INDEX "IDX_13d4bfef121d83362bb909c1ac" ON "company" USING btree ("domainNamePrimaryLinkUrl") `);
        await queryRunner.query(`CREATE INDEX "IDX_a76c5cd486f7779bd9c319afd2" ON "company" USING btree ("name") `);
    }

}
