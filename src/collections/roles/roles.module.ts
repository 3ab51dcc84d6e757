import { Module } from '@nestjs/common';
import { RolesController } from './roles.controller';

/** Roles: the collection whose records say what API keys may do (checked by src/core/access). */
@Module({ controllers: [RolesController] })
export class RolesModule {}
