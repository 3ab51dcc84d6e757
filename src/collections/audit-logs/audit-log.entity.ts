import { withoutHiddenProperties } from '../../core/access/event-properties';
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
  hooks: {
    // a row is a copy of a record of another collection: a key sees the rows about the collections
    // it can read, without the fields it may not read (API.md section 14)
    visibleRows: (readable) => `objectName[in]:[${readable.map((c) => JSON.stringify(c.singular)).join(',')}]`,
    redact: (row, access) => {
      const grant = typeof row.objectName === 'string' ? access.grantOfObject(row.objectName) : undefined;
      return grant && 'properties' in row
        ? { ...row, properties: withoutHiddenProperties(row.properties, grant) }
        : row;
    },
  },
});
