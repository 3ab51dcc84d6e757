import { Module } from '@nestjs/common';
import { ConnectedAccountsController } from './connected-accounts.controller';

@Module({ controllers: [ConnectedAccountsController] })
export class ConnectedAccountsModule {}
