import { MigrationInterface, QueryRunner } from "typeorm";

export class Files1795683909475 implements MigrationInterface {
    name = 'Files1795683909475'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "fileDeletion" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "objectKey" text NOT NULL, "attempts" integer NOT NULL DEFAULT '0', "nextAttemptAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "lastError" text, "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_04e623e2078c22da20ccc72bedc" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_fileDeletion_due" ON "fileDeletion"  ("nextAttemptAt") `);
        await queryRunner.query(`ALTER TABLE "attachment" ADD "size" double precision`);
        await queryRunner.query(`ALTER TABLE "attachment" ADD "mimeType" text`);
        await queryRunner.query(`ALTER TABLE "attachment" ADD "checksum" text`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "attachment" DROP COLUMN "checksum"`);
        await queryRunner.query(`ALTER TABLE "attachment" DROP COLUMN "mimeType"`);
        await queryRunner.query(`ALTER TABLE "attachment" DROP COLUMN "size"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_fileDeletion_due"`);
        await queryRunner.query(`DROP TABLE "fileDeletion"`);
    }

}
