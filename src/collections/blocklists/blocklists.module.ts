import { Module } from '@nestjs/common';
import { BlocklistsController } from './blocklists.controller';

@Module({ controllers: [BlocklistsController] })
export class BlocklistsModule {}
