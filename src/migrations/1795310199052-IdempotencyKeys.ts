import { MigrationInterface, QueryRunner } from "typeorm";

export class IdempotencyKeys1795310199052 implements MigrationInterface {
    name = 'IdempotencyKeys1795310199052'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "idempotencyKey" ("apiKeyId" uuid NOT NULL, "key" text NOT NULL, "fingerprint" text NOT NULL, "status" integer NOT NULL, "response" json NOT NULL, "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_683a6f7a7d535b5c0fed638bb02" PRIMARY KEY ("apiKeyId", "key"))`);
        await queryRunner.query(`CREATE INDEX "IDX_idempotencyKey_createdAt" ON "idempotencyKey"  ("createdAt") `);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`DROP INDEX "public"."IDX_idempotencyKey_createdAt"`);
        await queryRunner.query(`DROP TABLE "idempotencyKey"`);
    }

}
