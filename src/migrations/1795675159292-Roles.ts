import { MigrationInterface, QueryRunner } from "typeorm";

export class Roles1795675159292 implements MigrationInterface {
    name = 'Roles1795675159292'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "role" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "name" text NOT NULL, "description" text DEFAULT '', "admin" boolean NOT NULL DEFAULT false, "permissions" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_b36bcfe02fc8de3c57a8b2391c2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_a565c8bb3c45c044d9e2e2a1f9" ON "role"  ("createdAt", "id") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_feea44b500d2c4807a95524167" ON "role"  ("name") WHERE "deletedAt" IS NULL AND "name" <> ''`);
        await queryRunner.query(`ALTER TABLE "apiKey" ADD "roleId" uuid`);
        await queryRunner.query(`CREATE INDEX "IDX_83437b40c15e08822184bb8de2" ON "apiKey"  ("roleId", "deletedAt") `);
        await queryRunner.query(`ALTER TABLE "apiKey" ADD CONSTRAINT "FK_f3b657a3ed05f2558ea419a6ecf" FOREIGN KEY ("roleId") REFERENCES "role"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
        // the duplicate criterion of roles (declared on the entity, not synchronized by TypeORM)
        await queryRunner.query(`CREATE INDEX "IDX_role_duplicates_0" ON "role" (lower("name")) WHERE "deletedAt" IS NULL`);
        // fails a write statement whose result would leave the key's rows (API.md section 14): SQLSTATE CRM03, a 403
        await queryRunner.query(`CREATE FUNCTION crm_forbid(message text) RETURNS boolean LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION USING ERRCODE = 'CRM03', MESSAGE = message; END $$`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP FUNCTION crm_forbid(text)`);
        await queryRunner.query(`DROP INDEX "public"."IDX_role_duplicates_0"`);
        await queryRunner.query(`ALTER TABLE "apiKey" DROP CONSTRAINT "FK_f3b657a3ed05f2558ea419a6ecf"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_83437b40c15e08822184bb8de2"`);
        await queryRunner.query(`ALTER TABLE "apiKey" DROP COLUMN "roleId"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_feea44b500d2c4807a95524167"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_a565c8bb3c45c044d9e2e2a1f9"`);
        await queryRunner.query(`DROP TABLE "role"`);
    }

}
