import { createCrudController } from '../../core/rest/crud-controller.factory';
import { workspaceMembers } from './workspace-member.entity';

export class WorkspaceMembersController extends createCrudController(workspaceMembers) {}
