import { createCrudController } from '../../core/rest/crud-controller.factory';
import { auditLogs } from './audit-log.entity';

export class AuditLogsController extends createCrudController(auditLogs) {}
