import { MigrationInterface, QueryRunner } from 'typeorm';

/** The JSON columns that hold record copies of events, and what they are compressed with. */
const EVENT_COLUMNS = [
  ['auditLog', 'properties'],
  ['timelineActivity', 'properties'],
  ['webhookDelivery', 'payload'],
];

/**
 * Event rows carry whole records (before and after: 2-3 kB for a person), so their JSON is
 * compressed out of line. lz4 compresses them several times faster than the default pglz (an
 * update many of 10,000 people writes 20,000 such rows in its transaction). A server built
 * without lz4 (the embedded PGlite) keeps pglz: the statement is skipped, nothing else changes.
 */
export class EventCompression1795570000000 implements MigrationInterface {
  name = 'EventCompression1795570000000';

  private async compress(queryRunner: QueryRunner, method: 'lz4' | 'pglz'): Promise<void> {
    for (const [table, column] of EVENT_COLUMNS) {
      await queryRunner.query(
        `DO $$ BEGIN ALTER TABLE "${table}" ALTER COLUMN "${column}" SET COMPRESSION ${method}; ` +
          `EXCEPTION WHEN feature_not_supported OR invalid_parameter_value THEN NULL; END $$`,
      );
    }
  }

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.compress(queryRunner, 'lz4');
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.compress(queryRunner, 'pglz');
  }
}
