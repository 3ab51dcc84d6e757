import { PartialType } from '@nestjs/swagger';
import { JoinColumnField, NumberField } from '../../core/fields';
import { RecordResponse } from '../../core/openapi/record-response';

/** Favorite: the create body (every writable field, declared once). */
export class Favorite {
  @NumberField({ description: 'Ordering in the left menu', default: 0, system: true })
  position?: number;

  @JoinColumnField({
    name: 'forWorkspaceMember',
    target: 'workspaceMembers',
    inverse: 'favorites',
    onDelete: 'CASCADE',
    nullable: true,
  })
  forWorkspaceMemberId?: string | null;

  @JoinColumnField({ name: 'person', target: 'people', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  personId?: string | null;

  @JoinColumnField({ name: 'company', target: 'companies', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  companyId?: string | null;

  @JoinColumnField({
    name: 'favoriteFolder',
    target: 'favoriteFolders',
    inverse: 'favorites',
    onDelete: 'SET_NULL',
    nullable: true,
  })
  favoriteFolderId?: string | null;

  @JoinColumnField({
    name: 'opportunity',
    target: 'opportunities',
    inverse: 'favorites',
    onDelete: 'CASCADE',
    nullable: true,
  })
  opportunityId?: string | null;

  @JoinColumnField({ name: 'workflow', target: 'workflows', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  workflowId?: string | null;

  @JoinColumnField({
    name: 'workflowVersion',
    target: 'workflowVersions',
    inverse: 'favorites',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowVersionId?: string | null;

  @JoinColumnField({
    name: 'workflowRun',
    target: 'workflowRuns',
    inverse: 'favorites',
    onDelete: 'CASCADE',
    nullable: true,
  })
  workflowRunId?: string | null;

  @JoinColumnField({ name: 'task', target: 'tasks', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  taskId?: string | null;

  @JoinColumnField({ name: 'note', target: 'notes', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  noteId?: string | null;

  @JoinColumnField({ name: 'view', target: 'views', inverse: 'favorites', onDelete: 'CASCADE', nullable: true })
  viewId?: string | null;
}

/** Favorite update body: every field optional (PATCH). */
export class FavoriteForUpdate extends PartialType(Favorite, { skipNullProperties: false }) {}

/** Favorite as returned: common fields, readable fields and relations. */
export class FavoriteForResponse extends RecordResponse(Favorite) {}
