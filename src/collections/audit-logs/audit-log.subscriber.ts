import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import { auditProperties, RecordEvent } from '../../core/events/record-events';
import { RequestActor } from '../../core/model/record';
import { SqlParams } from '../../core/query/apply-query';
import { RecordRepository } from '../../core/repository/record-repository';
import { Repositories } from '../../core/repository/repositories';

const COLUMNS = ['name', 'objectName', 'recordId', 'properties', 'context', 'workspaceMemberId'];

/** The audit log: one `auditLogs` row per record event, written in the transaction of the change. */
@Injectable()
export class AuditLogSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'audit';
  readonly writes = ['auditLogs'];
  private readonly auditLogs: RecordRepository;

  constructor(
    private readonly bus: RecordEventBus,
    repositories: Repositories,
  ) {
    this.auditLogs = repositories.get('auditLogs');
  }

  onModuleInit(): void {
    this.bus.subscribe(this);
  }

  statements(events: RecordEvent[], actor: RequestActor, params: SqlParams): EventStatement[] {
    const context = { apiKeyId: actor.apiKeyId || null };
    const rows = events.map((e) => ({
      name: e.name,
      objectName: e.meta.def.singular,
      recordId: e.recordId,
      properties: auditProperties(e),
      context,
      workspaceMemberId: actor.workspaceMemberId,
    }));
    return [{ name: 'audit', sql: this.auditLogs.insertFromJson(COLUMNS, params.add(JSON.stringify(rows))) }];
  }
}
