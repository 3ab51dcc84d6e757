import { IdempotencyKeyEntity } from '../core/idempotency/idempotency-key.entity';
import { Type } from '@nestjs/common';
import type { DatabaseSchema } from '../core/database/data-source-options';
import { CollectionDefinition } from '../core/model/collection-definition';
import { WebhookDeliveryEntity } from './webhooks/webhook-delivery.entity';
import { FileDeletionEntity } from './attachments/file-deletion.entity';
import { apiKeys } from './api-keys/api-key.entity';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { attachments } from './attachments/attachment.entity';
import { AttachmentsModule } from './attachments/attachments.module';
import { auditLogs } from './audit-logs/audit-log.entity';
import { AuditLogsModule } from './audit-logs/audit-logs.module';
import { blocklists } from './blocklists/blocklist.entity';
import { BlocklistsModule } from './blocklists/blocklists.module';
import { calendarChannelEventAssociations } from './calendar-channel-event-associations/calendar-channel-event-association.entity';
import { CalendarChannelEventAssociationsModule } from './calendar-channel-event-associations/calendar-channel-event-associations.module';
import { calendarChannels } from './calendar-channels/calendar-channel.entity';
import { CalendarChannelsModule } from './calendar-channels/calendar-channels.module';
import { calendarEventParticipants } from './calendar-event-participants/calendar-event-participant.entity';
import { CalendarEventParticipantsModule } from './calendar-event-participants/calendar-event-participants.module';
import { calendarEvents } from './calendar-events/calendar-event.entity';
import { CalendarEventsModule } from './calendar-events/calendar-events.module';
import { companies } from './companies/company.entity';
import { CompaniesModule } from './companies/companies.module';
import { connectedAccounts } from './connected-accounts/connected-account.entity';
import { ConnectedAccountsModule } from './connected-accounts/connected-accounts.module';
import { favoriteFolders } from './favorite-folders/favorite-folder.entity';
import { FavoriteFoldersModule } from './favorite-folders/favorite-folders.module';
import { favorites } from './favorites/favorite.entity';
import { FavoritesModule } from './favorites/favorites.module';
import { messageChannelMessageAssociations } from './message-channel-message-associations/message-channel-message-association.entity';
import { MessageChannelMessageAssociationsModule } from './message-channel-message-associations/message-channel-message-associations.module';
import { messageChannels } from './message-channels/message-channel.entity';
import { MessageChannelsModule } from './message-channels/message-channels.module';
import { messageFolders } from './message-folders/message-folder.entity';
import { MessageFoldersModule } from './message-folders/message-folders.module';
import { messageParticipants } from './message-participants/message-participant.entity';
import { MessageParticipantsModule } from './message-participants/message-participants.module';
import { messageThreads } from './message-threads/message-thread.entity';
import { MessageThreadsModule } from './message-threads/message-threads.module';
import { messages } from './messages/message.entity';
import { MessagesModule } from './messages/messages.module';
import { noteTargets } from './note-targets/note-target.entity';
import { NoteTargetsModule } from './note-targets/note-targets.module';
import { notes } from './notes/note.entity';
import { NotesModule } from './notes/notes.module';
import { opportunities } from './opportunities/opportunity.entity';
import { OpportunitiesModule } from './opportunities/opportunities.module';
import { people } from './people/person.entity';
import { roles } from './roles/role.entity';
import { RolesModule } from './roles/roles.module';
import { PeopleModule } from './people/people.module';
import { taskTargets } from './task-targets/task-target.entity';
import { TaskTargetsModule } from './task-targets/task-targets.module';
import { tasks } from './tasks/task.entity';
import { TasksModule } from './tasks/tasks.module';
import { timelineActivities } from './timeline-activities/timeline-activity.entity';
import { TimelineActivitiesModule } from './timeline-activities/timeline-activities.module';
import { viewFields } from './view-fields/view-field.entity';
import { ViewFieldsModule } from './view-fields/view-fields.module';
import { viewFilterGroups } from './view-filter-groups/view-filter-group.entity';
import { ViewFilterGroupsModule } from './view-filter-groups/view-filter-groups.module';
import { viewFilters } from './view-filters/view-filter.entity';
import { ViewFiltersModule } from './view-filters/view-filters.module';
import { viewGroups } from './view-groups/view-group.entity';
import { ViewGroupsModule } from './view-groups/view-groups.module';
import { viewSorts } from './view-sorts/view-sort.entity';
import { ViewSortsModule } from './view-sorts/view-sorts.module';
import { views } from './views/view.entity';
import { ViewsModule } from './views/views.module';
import { webhooks } from './webhooks/webhook.entity';
import { WebhooksModule } from './webhooks/webhooks.module';
import { workflowEventListeners } from './workflow-event-listeners/workflow-event-listener.entity';
import { WorkflowEventListenersModule } from './workflow-event-listeners/workflow-event-listeners.module';
import { workflowRuns } from './workflow-runs/workflow-run.entity';
import { WorkflowRunsModule } from './workflow-runs/workflow-runs.module';
import { workflowVersions } from './workflow-versions/workflow-version.entity';
import { WorkflowVersionsModule } from './workflow-versions/workflow-versions.module';
import { workflows } from './workflows/workflow.entity';
import { WorkflowsModule } from './workflows/workflows.module';
import { workspaceMembers } from './workspace-members/workspace-member.entity';
import { WorkspaceMembersModule } from './workspace-members/workspace-members.module';

export interface CollectionRegistration {
  definition: CollectionDefinition;
  module: Type<unknown>;
}

/** COLLECTIONS: the one list. It feeds the AppModule, the DataSource, OpenAPI and the tests. */
export const COLLECTIONS: CollectionRegistration[] = [
  { definition: apiKeys, module: ApiKeysModule },
  { definition: attachments, module: AttachmentsModule },
  { definition: auditLogs, module: AuditLogsModule },
  { definition: blocklists, module: BlocklistsModule },
  { definition: calendarChannelEventAssociations, module: CalendarChannelEventAssociationsModule },
  { definition: calendarChannels, module: CalendarChannelsModule },
  { definition: calendarEventParticipants, module: CalendarEventParticipantsModule },
  { definition: calendarEvents, module: CalendarEventsModule },
  { definition: companies, module: CompaniesModule },
  { definition: connectedAccounts, module: ConnectedAccountsModule },
  { definition: favoriteFolders, module: FavoriteFoldersModule },
  { definition: favorites, module: FavoritesModule },
  { definition: messageChannelMessageAssociations, module: MessageChannelMessageAssociationsModule },
  { definition: messageChannels, module: MessageChannelsModule },
  { definition: messageFolders, module: MessageFoldersModule },
  { definition: messageParticipants, module: MessageParticipantsModule },
  { definition: messageThreads, module: MessageThreadsModule },
  { definition: messages, module: MessagesModule },
  { definition: noteTargets, module: NoteTargetsModule },
  { definition: notes, module: NotesModule },
  { definition: opportunities, module: OpportunitiesModule },
  { definition: people, module: PeopleModule },
  { definition: roles, module: RolesModule },
  { definition: taskTargets, module: TaskTargetsModule },
  { definition: tasks, module: TasksModule },
  { definition: timelineActivities, module: TimelineActivitiesModule },
  { definition: viewFields, module: ViewFieldsModule },
  { definition: viewFilterGroups, module: ViewFilterGroupsModule },
  { definition: viewFilters, module: ViewFiltersModule },
  { definition: viewGroups, module: ViewGroupsModule },
  { definition: viewSorts, module: ViewSortsModule },
  { definition: views, module: ViewsModule },
  { definition: webhooks, module: WebhooksModule },
  { definition: workflowEventListeners, module: WorkflowEventListenersModule },
  { definition: workflowRuns, module: WorkflowRunsModule },
  { definition: workflowVersions, module: WorkflowVersionsModule },
  { definition: workflows, module: WorkflowsModule },
  { definition: workspaceMembers, module: WorkspaceMembersModule },
];

export const COLLECTION_DEFINITIONS = COLLECTIONS.map((c) => c.definition);
/** What the DataSource holds: every collection's table, the webhook outbox and the idempotency keys. */
export const DATABASE_SCHEMA: DatabaseSchema = {
  collections: COLLECTION_DEFINITIONS,
  entities: [WebhookDeliveryEntity, FileDeletionEntity, IdempotencyKeyEntity],
};
