import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { DATABASE_SCHEMA } from './src/collections';
import { loadConfig } from './src/core/config/app-config';
import { dataSourceOptions } from './src/core/database/data-source-options';

/**
 * The DataSource of the TypeORM CLI (npm run migration:generate|run|revert): the same options
 * as the application, on DATABASE_DIRECT_URL (else DATABASE_URL) or on the embedded database in DATA_DIR.
 */
export default new DataSource(
  dataSourceOptions(loadConfig(process.env, { forMigrations: true }), DATABASE_SCHEMA, undefined, { direct: true }),
);
