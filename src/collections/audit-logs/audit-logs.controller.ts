import { createCrudController } from '../../core/crud/crud-controller.factory';
import { auditLogs } from './audit-log.entity';

export class AuditLogsController extends createCrudController(auditLogs) {}
