import { createCrudController } from '../../core/rest/crud-controller.factory';
import { apiKeys } from './api-key.entity';

export class ApiKeysController extends createCrudController(apiKeys) {}
