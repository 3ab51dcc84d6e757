import { RecordEntity } from '../../core/database/record-entity';
import { defineCollection } from '../../core/model/collection-definition';
import { AuditLog, AuditLogForResponse, AuditLogForUpdate } from './audit-log.dto';

@RecordEntity({ table: 'auditLog', fields: AuditLog })
export class AuditLogEntity {}

export const auditLogs = defineCollection({
  plural: 'auditLogs',
  description: 'Audit logs: one row per record event, written with the change (before, after, diff)',
  singular: 'auditLog',
  pascal: 'AuditLog',
  pascalPlural: 'AuditLogs',
  entity: AuditLogEntity,
  create: AuditLog,
  update: AuditLogForUpdate,
  response: AuditLogForResponse,
  labelIdentifier: 'name',
  duplicateCriteria: [],
  timeline: false,
});
