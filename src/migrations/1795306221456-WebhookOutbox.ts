import { MigrationInterface, QueryRunner } from "typeorm";

export class WebhookOutbox1795306221456 implements MigrationInterface {
    name = 'WebhookOutbox1795306221456'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "webhookDelivery" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "webhookId" uuid NOT NULL, "eventName" text NOT NULL, "payload" jsonb NOT NULL, "status" text NOT NULL DEFAULT 'pending', "attempts" integer NOT NULL DEFAULT '0', "nextAttemptAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "lastStatus" integer, "lastError" text, "deliveredAt" TIMESTAMP WITH TIME ZONE, "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a99abf973526218eccc724d33c1" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_webhookDelivery_due" ON "webhookDelivery"  ("nextAttemptAt") WHERE "status" = 'pending'`);
        await queryRunner.query(`ALTER TABLE "webhookDelivery" ADD CONSTRAINT "FK_fc9789a4a8f05132cfca615537b" FOREIGN KEY ("webhookId") REFERENCES "webhook"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhookDelivery" DROP CONSTRAINT "FK_fc9789a4a8f05132cfca615537b"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_webhookDelivery_due"`);
        await queryRunner.query(`DROP TABLE "webhookDelivery"`);
    }

}
