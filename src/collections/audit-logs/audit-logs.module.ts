import { Module } from '@nestjs/common';
import { AuditLogSubscriber } from './audit-log.subscriber';
import { AuditLogsController } from './audit-logs.controller';

@Module({ controllers: [AuditLogsController], providers: [AuditLogSubscriber] })
export class AuditLogsModule {}
