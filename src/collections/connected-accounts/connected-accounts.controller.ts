import { createCrudController } from '../../core/rest/crud-controller.factory';
import { connectedAccounts } from './connected-account.entity';

export class ConnectedAccountsController extends createCrudController(connectedAccounts) {}
