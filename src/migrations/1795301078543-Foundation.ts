import { MigrationInterface, QueryRunner } from "typeorm";

export class Foundation1795301078543 implements MigrationInterface {
    name = 'Foundation1795301078543'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "apiKey" ("tokenHash" text, "id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "name" text NOT NULL DEFAULT '', "expiresAt" TIMESTAMP WITH TIME ZONE NOT NULL, "revokedAt" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_2ae3a5e8e04fb402b2dc8d6ce4b" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_f6d957b77190dabc0527fc96cc" ON "apiKey"  ("tokenHash") `);
        await queryRunner.query(`CREATE INDEX "IDX_b68efaf4976ae89fa9a9f20711" ON "apiKey"  ("createdAt") `);
        await queryRunner.query(`CREATE TYPE "public"."company_createdBySource_enum" AS ENUM('EMAIL', 'CALENDAR', 'WORKFLOW', 'API', 'IMPORT', 'MANUAL', 'SYSTEM', 'WEBHOOK', 'AGENT', 'APPLICATION')`);
        await queryRunner.query(`INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES (current_database(), $1, $2, $3, $4, $5)`, ["public","company","GENERATED_COLUMN","searchVector","to_tsvector('simple'::regconfig, COALESCE(\"name\", '') || ' ' || COALESCE(\"domainNamePrimaryLinkUrl\", ''))"]);
        await queryRunner.query(`CREATE TABLE "company" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "name" text NOT NULL DEFAULT '', "domainNamePrimaryLinkUrl" text NOT NULL DEFAULT '', "domainNamePrimaryLinkLabel" text NOT NULL DEFAULT '', "domainNameSecondaryLinks" jsonb DEFAULT '[]', "employees" double precision, "linkedinLinkPrimaryLinkUrl" text DEFAULT '', "linkedinLinkPrimaryLinkLabel" text DEFAULT '', "linkedinLinkSecondaryLinks" jsonb DEFAULT '[]', "xLinkPrimaryLinkUrl" text DEFAULT '', "xLinkPrimaryLinkLabel" text DEFAULT '', "xLinkSecondaryLinks" jsonb DEFAULT '[]', "annualRecurringRevenueAmountMicros" numeric, "annualRecurringRevenueCurrencyCode" text DEFAULT '', "addressAddressStreet1" text DEFAULT '', "addressAddressStreet2" text DEFAULT '', "addressAddressCity" text DEFAULT '', "addressAddressPostcode" text DEFAULT '', "addressAddressState" text DEFAULT '', "addressAddressCountry" text DEFAULT '', "addressAddressLat" numeric, "addressAddressLng" numeric, "idealCustomerProfile" boolean NOT NULL DEFAULT false, "position" double precision NOT NULL DEFAULT 0, "createdBySource" "public"."company_createdBySource_enum" NOT NULL DEFAULT 'MANUAL', "createdByWorkspaceMemberId" uuid, "createdByName" text NOT NULL DEFAULT '', "createdByContext" jsonb, "accountOwnerId" uuid, "addressOld" text DEFAULT '', "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE("name", '') || ' ' || COALESCE("domainNamePrimaryLinkUrl", ''))) STORED, CONSTRAINT "PK_056f7854a7afdba7cbd6d45fc20" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_dbd45d4f25e03ce493fcbc551d" ON "company"  ("createdAt") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_ad5b72093d5b6380bc04f707d0" ON "company"  ("domainNamePrimaryLinkUrl") WHERE "deletedAt" IS NULL AND "domainNamePrimaryLinkUrl" <> ''`);
        await queryRunner.query(`CREATE INDEX "IDX_abe91dff1e48d77edca339f387" ON "company"  ("accountOwnerId") `);
        await queryRunner.query(`CREATE INDEX "IDX_22b453dc9949bcad6b74a73338" ON "company" USING gin ("searchVector") `);
        await queryRunner.query(`CREATE TABLE "connectedAccount" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "handle" text NOT NULL DEFAULT '', "provider" text NOT NULL DEFAULT '', "accessToken" text NOT NULL DEFAULT '', "refreshToken" text NOT NULL DEFAULT '', "lastSyncHistoryId" text NOT NULL DEFAULT '', "authFailedAt" TIMESTAMP WITH TIME ZONE, "handleAliases" text NOT NULL DEFAULT '', "scopes" text array, "accountOwnerId" uuid NOT NULL, CONSTRAINT "PK_8e7a0a0bbc2e06ac2acf89b7f3a" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_7d0fe6cf8da81ccc834bf47cb5" ON "connectedAccount"  ("createdAt") `);
        await queryRunner.query(`CREATE INDEX "IDX_6b4f87f1cff07faee5635ff6a6" ON "connectedAccount"  ("accountOwnerId") `);
        await queryRunner.query(`CREATE TYPE "public"."messageChannel_visibility_enum" AS ENUM('METADATA', 'SUBJECT', 'SHARE_EVERYTHING')`);
        await queryRunner.query(`CREATE TYPE "public"."messageChannel_type_enum" AS ENUM('email', 'sms')`);
        await queryRunner.query(`CREATE TYPE "public"."messageChannel_contactAutoCreationPolicy_enum" AS ENUM('SENT_AND_RECEIVED', 'SENT', 'NONE')`);
        await queryRunner.query(`CREATE TYPE "public"."messageChannel_syncStatus_enum" AS ENUM('ONGOING', 'NOT_SYNCED', 'ACTIVE', 'FAILED_INSUFFICIENT_PERMISSIONS', 'FAILED_UNKNOWN')`);
        await queryRunner.query(`CREATE TYPE "public"."messageChannel_syncStage_enum" AS ENUM('FULL_MESSAGE_LIST_FETCH_PENDING', 'PARTIAL_MESSAGE_LIST_FETCH_PENDING', 'MESSAGE_LIST_FETCH_ONGOING', 'MESSAGES_IMPORT_PENDING', 'MESSAGES_IMPORT_ONGOING', 'FAILED')`);
        await queryRunner.query(`CREATE TABLE "messageChannel" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "visibility" "public"."messageChannel_visibility_enum" NOT NULL DEFAULT 'SHARE_EVERYTHING', "handle" text NOT NULL DEFAULT '', "type" "public"."messageChannel_type_enum" NOT NULL DEFAULT 'email', "isContactAutoCreationEnabled" boolean NOT NULL DEFAULT true, "contactAutoCreationPolicy" "public"."messageChannel_contactAutoCreationPolicy_enum" NOT NULL DEFAULT 'SENT', "excludeNonProfessionalEmails" boolean NOT NULL DEFAULT true, "excludeGroupEmails" boolean NOT NULL DEFAULT true, "isSyncEnabled" boolean NOT NULL DEFAULT true, "syncCursor" text NOT NULL DEFAULT '', "syncedAt" TIMESTAMP WITH TIME ZONE, "syncStatus" "public"."messageChannel_syncStatus_enum", "syncStage" "public"."messageChannel_syncStage_enum" NOT NULL DEFAULT 'FULL_MESSAGE_LIST_FETCH_PENDING', "syncStageStartedAt" TIMESTAMP WITH TIME ZONE, "throttleFailureCount" double precision NOT NULL DEFAULT 0, "connectedAccountId" uuid NOT NULL, CONSTRAINT "PK_438b9412475f39712ed065f77af" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_3b1a1c5a35db52b934d1bd6d61" ON "messageChannel"  ("createdAt") `);
        await queryRunner.query(`CREATE INDEX "IDX_2e966cbb240771c67630d52895" ON "messageChannel"  ("connectedAccountId") `);
        await queryRunner.query(`CREATE TYPE "public"."person_createdBySource_enum" AS ENUM('EMAIL', 'CALENDAR', 'WORKFLOW', 'API', 'IMPORT', 'MANUAL', 'SYSTEM', 'WEBHOOK', 'AGENT', 'APPLICATION')`);
        await queryRunner.query(`INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES (current_database(), $1, $2, $3, $4, $5)`, ["public","person","GENERATED_COLUMN","searchVector","to_tsvector('simple'::regconfig, COALESCE(\"nameFirstName\", '') || ' ' || COALESCE(\"nameLastName\", '') || ' ' || COALESCE(\"emailsPrimaryEmail\", '') || ' ' || COALESCE(\"phonesPrimaryPhoneNumber\", '') || ' ' || COALESCE(\"jobTitle\", ''))"]);
        await queryRunner.query(`CREATE TABLE "person" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "nameFirstName" text DEFAULT '', "nameLastName" text DEFAULT '', "emailsPrimaryEmail" text NOT NULL DEFAULT '', "emailsAdditionalEmails" jsonb, "linkedinLinkPrimaryLinkUrl" text DEFAULT '', "linkedinLinkPrimaryLinkLabel" text DEFAULT '', "linkedinLinkSecondaryLinks" jsonb DEFAULT '[]', "xLinkPrimaryLinkUrl" text DEFAULT '', "xLinkPrimaryLinkLabel" text DEFAULT '', "xLinkSecondaryLinks" jsonb DEFAULT '[]', "jobTitle" text NOT NULL DEFAULT '', "phone" text DEFAULT '', "phonesPrimaryPhoneNumber" text DEFAULT '', "phonesPrimaryPhoneCountryCode" text DEFAULT '', "phonesPrimaryPhoneCallingCode" text DEFAULT '', "phonesAdditionalPhones" jsonb, "city" text NOT NULL DEFAULT '', "avatarUrl" text NOT NULL DEFAULT '', "position" double precision NOT NULL DEFAULT 0, "createdBySource" "public"."person_createdBySource_enum" NOT NULL DEFAULT 'MANUAL', "createdByWorkspaceMemberId" uuid, "createdByName" text NOT NULL DEFAULT '', "createdByContext" jsonb, "companyId" uuid, "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE("nameFirstName", '') || ' ' || COALESCE("nameLastName", '') || ' ' || COALESCE("emailsPrimaryEmail", '') || ' ' || COALESCE("phonesPrimaryPhoneNumber", '') || ' ' || COALESCE("jobTitle", ''))) STORED, CONSTRAINT "PK_5fdaf670315c4b7e70cce85daa3" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_db4ea75ef504a464b3fbad2441" ON "person"  ("createdAt") `);
        await queryRunner.query(`CREATE UNIQUE INDEX "IDX_2f6bb890551f54d83ae4a85e94" ON "person"  ("emailsPrimaryEmail") WHERE "deletedAt" IS NULL AND "emailsPrimaryEmail" <> ''`);
        await queryRunner.query(`CREATE INDEX "IDX_ee066ddacfce46c9a7cb90edd1" ON "person"  ("companyId") `);
        await queryRunner.query(`CREATE INDEX "IDX_b8c17e85b5d0e2a4c8e8db4999" ON "person" USING gin ("searchVector") `);
        await queryRunner.query(`CREATE TYPE "public"."workspaceMember_dateFormat_enum" AS ENUM('SYSTEM', 'MONTH_FIRST', 'DAY_FIRST', 'YEAR_FIRST')`);
        await queryRunner.query(`CREATE TYPE "public"."workspaceMember_timeFormat_enum" AS ENUM('SYSTEM', 'HOUR_24', 'HOUR_12')`);
        await queryRunner.query(`INSERT INTO "typeorm_metadata"("database", "schema", "table", "type", "name", "value") VALUES (current_database(), $1, $2, $3, $4, $5)`, ["public","workspaceMember","GENERATED_COLUMN","searchVector","to_tsvector('simple'::regconfig, COALESCE(\"nameFirstName\", '') || ' ' || COALESCE(\"nameLastName\", '') || ' ' || COALESCE(\"userEmail\", ''))"]);
        await queryRunner.query(`CREATE TABLE "workspaceMember" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "deletedAt" TIMESTAMP WITH TIME ZONE, "nameFirstName" text NOT NULL DEFAULT '', "nameLastName" text NOT NULL DEFAULT '', "colorScheme" text NOT NULL DEFAULT 'System', "locale" text NOT NULL DEFAULT 'en', "avatarUrl" text NOT NULL DEFAULT '', "userEmail" text NOT NULL DEFAULT '', "userId" uuid NOT NULL, "timeZone" text NOT NULL DEFAULT 'system', "dateFormat" "public"."workspaceMember_dateFormat_enum" NOT NULL DEFAULT 'SYSTEM', "timeFormat" "public"."workspaceMember_timeFormat_enum" NOT NULL DEFAULT 'SYSTEM', "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, COALESCE("nameFirstName", '') || ' ' || COALESCE("nameLastName", '') || ' ' || COALESCE("userEmail", ''))) STORED, CONSTRAINT "PK_68d25e836fb0289293cf4d9a449" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "IDX_417689ef4763507ee5e3957ce9" ON "workspaceMember"  ("createdAt") `);
        await queryRunner.query(`CREATE INDEX "IDX_53ee6c59e1b9ff1351d6c4c502" ON "workspaceMember" USING gin ("searchVector") `);
        await queryRunner.query(`ALTER TABLE "company" ADD CONSTRAINT "FK_abe91dff1e48d77edca339f387c" FOREIGN KEY ("accountOwnerId") REFERENCES "workspaceMember"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "connectedAccount" ADD CONSTRAINT "FK_6b4f87f1cff07faee5635ff6a6d" FOREIGN KEY ("accountOwnerId") REFERENCES "workspaceMember"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "messageChannel" ADD CONSTRAINT "FK_2e966cbb240771c67630d52895c" FOREIGN KEY ("connectedAccountId") REFERENCES "connectedAccount"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "person" ADD CONSTRAINT "FK_ee066ddacfce46c9a7cb90edd1a" FOREIGN KEY ("companyId") REFERENCES "company"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "person" DROP CONSTRAINT "FK_ee066ddacfce46c9a7cb90edd1a"`);
        await queryRunner.query(`ALTER TABLE "messageChannel" DROP CONSTRAINT "FK_2e966cbb240771c67630d52895c"`);
        await queryRunner.query(`ALTER TABLE "connectedAccount" DROP CONSTRAINT "FK_6b4f87f1cff07faee5635ff6a6d"`);
        await queryRunner.query(`ALTER TABLE "company" DROP CONSTRAINT "FK_abe91dff1e48d77edca339f387c"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_53ee6c59e1b9ff1351d6c4c502"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_417689ef4763507ee5e3957ce9"`);
        await queryRunner.query(`DROP TABLE "workspaceMember"`);
        await queryRunner.query(`DELETE FROM "typeorm_metadata" WHERE "type" = $1 AND "name" = $2 AND "database" = current_database() AND "schema" = $3 AND "table" = $4`, ["GENERATED_COLUMN","searchVector","public","workspaceMember"]);
        await queryRunner.query(`DROP TYPE "public"."workspaceMember_timeFormat_enum"`);
        await queryRunner.query(`DROP TYPE "public"."workspaceMember_dateFormat_enum"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_b8c17e85b5d0e2a4c8e8db4999"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_ee066ddacfce46c9a7cb90edd1"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_2f6bb890551f54d83ae4a85e94"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_db4ea75ef504a464b3fbad2441"`);
        await queryRunner.query(`DROP TABLE "person"`);
        await queryRunner.query(`DELETE FROM "typeorm_metadata" WHERE "type" = $1 AND "name" = $2 AND "database" = current_database() AND "schema" = $3 AND "table" = $4`, ["GENERATED_COLUMN","searchVector","public","person"]);
        await queryRunner.query(`DROP TYPE "public"."person_createdBySource_enum"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_2e966cbb240771c67630d52895"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_3b1a1c5a35db52b934d1bd6d61"`);
        await queryRunner.query(`DROP TABLE "messageChannel"`);
        await queryRunner.query(`DROP TYPE "public"."messageChannel_syncStage_enum"`);
        await queryRunner.query(`DROP TYPE "public"."messageChannel_syncStatus_enum"`);
        await queryRunner.query(`DROP TYPE "public"."messageChannel_contactAutoCreationPolicy_enum"`);
        await queryRunner.query(`DROP TYPE "public"."messageChannel_type_enum"`);
        await queryRunner.query(`DROP TYPE "public"."messageChannel_visibility_enum"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_6b4f87f1cff07faee5635ff6a6"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_7d0fe6cf8da81ccc834bf47cb5"`);
        await queryRunner.query(`DROP TABLE "connectedAccount"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_22b453dc9949bcad6b74a73338"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_abe91dff1e48d77edca339f387"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_ad5b72093d5b6380bc04f707d0"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_dbd45d4f25e03ce493fcbc551d"`);
        await queryRunner.query(`DROP TABLE "company"`);
        await queryRunner.query(`DELETE FROM "typeorm_metadata" WHERE "type" = $1 AND "name" = $2 AND "database" = current_database() AND "schema" = $3 AND "table" = $4`, ["GENERATED_COLUMN","searchVector","public","company"]);
        await queryRunner.query(`DROP TYPE "public"."company_createdBySource_enum"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_b68efaf4976ae89fa9a9f20711"`);
        await queryRunner.query(`DROP INDEX "public"."IDX_f6d957b77190dabc0527fc96cc"`);
        await queryRunner.query(`DROP TABLE "apiKey"`);
    }

}
