import { MigrationInterface, QueryRunner } from 'typeorm';
import {
  dropLiveCountTriggersSql,
  LIVE_COUNT_SETUP_SQL,
  LIVE_COUNTS,
  liveCountTriggersSql,
} from '../core/database/live-count-triggers';

/** The tables of the 38 collections of this release (a collection added later counts itself in its own migration). */
const TABLES = [
  'apiKey', 'attachment', 'auditLog', 'blocklist', 'calendarChannel', 'calendarChannelEventAssociation',
  'calendarEvent', 'calendarEventParticipant', 'company', 'connectedAccount', 'favorite', 'favoriteFolder',
  'message', 'messageChannel', 'messageChannelMessageAssociation', 'messageFolder', 'messageParticipant',
  'messageThread', 'note', 'noteTarget', 'opportunity', 'person', 'role', 'task', 'taskTarget',
  'timelineActivity', 'view', 'viewField', 'viewFilter', 'viewFilterGroup', 'viewGroup', 'viewSort', 'webhook',
  'workflow', 'workflowEventListener', 'workflowRun', 'workflowVersion', 'workspaceMember',
];

/**
 * The unfiltered count of a list (a CRM's first screen) read from maintained deltas instead of
 * counting every live record (API.md section 18): `_live_counts`, its trigger functions, and the
 * triggers of every collection's table with its first count.
 */
export class LiveCounts1795750000000 implements MigrationInterface {
  name = 'LiveCounts1795750000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const sql of LIVE_COUNT_SETUP_SQL) await queryRunner.query(sql);
    for (const table of TABLES) for (const sql of liveCountTriggersSql(table)) await queryRunner.query(sql);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of TABLES) for (const sql of dropLiveCountTriggersSql(table)) await queryRunner.query(sql);
    for (const fn of ['inserted', 'deleted', 'moved', 'truncated'])
      await queryRunner.query(`DROP FUNCTION crm_live_count_${fn}()`);
    await queryRunner.query(`DROP TABLE "${LIVE_COUNTS}"`);
  }
}
