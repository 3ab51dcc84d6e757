import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventStatement, RecordEventBus, RecordEventSubscriber } from '../../core/events/event-bus';
import { EVENT_RELATION, eventPropertiesSql } from '../../core/repository/event-rows';
import { RequestActor } from '../../core/model/record';
import { SqlParams } from '../../core/query/sql-params';
import { WriteStatements } from '../../core/repository/write-statements';
import { Repositories } from '../../core/repository/repositories';

/** The audit log: one `auditLogs` row per record event, written in the transaction of the change. */
@Injectable()
export class AuditLogSubscriber implements RecordEventSubscriber, OnModuleInit {
  readonly provides = 'audit';
  readonly writes = ['auditLogs'];
  private readonly auditLogs: WriteStatements;

  constructor(
    private readonly bus: RecordEventBus,
    repositories: Repositories,
  ) {
    this.auditLogs = repositories.get('auditLogs').writes;
  }

  onModuleInit(): void {
    this.bus.subscribe(this);
  }

  statements(_collections: unknown, actor: RequestActor, params: SqlParams): EventStatement[] {
    const importId = actor.importContext?.importId;
    const context = params.add(JSON.stringify({ apiKeyId: actor.apiKeyId || null, ...(importId ? { importId } : {}) }));
    const member = params.add(actor.workspaceMemberId ?? null);
    const select =
      `SELECT e."name", e."objectName", e."recordId", ${eventPropertiesSql('e')}, ${context}::jsonb, ${member}::uuid ` +
      `FROM ${EVENT_RELATION} e`;
    return [
      {
        name: 'audit',
        sql: this.auditLogs.insertFrom(
          ['name', 'objectName', 'recordId', 'properties', 'context', 'workspaceMemberId'],
          select,
        ),
      },
    ];
  }
}
