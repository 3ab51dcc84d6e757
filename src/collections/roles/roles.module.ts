import { Module, OnModuleInit } from '@nestjs/common';
import { permissionsProblems } from '../../core/access/grants';
import { CollectionCatalog } from '../../core/model/collection-catalog';
import { RecordChecks } from '../../core/records/record-checks';
import { RolesController } from './roles.controller';

/**
 * Roles: the collection whose records say what API keys may do (compiled and enforced by
 * src/core/access). A role's `permissions` are checked on every write against the catalog: one
 * message per problem (API.md section 14).
 */
@Module({ controllers: [RolesController] })
export class RolesModule implements OnModuleInit {
  constructor(
    private readonly checks: RecordChecks,
    private readonly catalog: CollectionCatalog,
  ) {}

  onModuleInit(): void {
    this.checks.register('roles', (role) =>
      'permissions' in role ? permissionsProblems(this.catalog, role.permissions) : [],
    );
  }
}
