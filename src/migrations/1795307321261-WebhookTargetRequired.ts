import { MigrationInterface, QueryRunner } from "typeorm";

export class WebhookTargetRequired1795307321261 implements MigrationInterface {
    name = 'WebhookTargetRequired1795307321261'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook" ALTER COLUMN "targetUrl" DROP DEFAULT`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "webhook" ALTER COLUMN "targetUrl" SET DEFAULT ''`);
    }

}
