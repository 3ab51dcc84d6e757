import { Global, Injectable, Module, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import type { FileStorageConfig } from '../config/file-storage-config';
import { DiskFileStorage } from './disk-file-storage';
import { FileStorage } from './file-storage';
import { S3FileStorage } from './s3-file-storage';

/**
 * The storage `config` asks for: S3 when S3_BUCKET is set, else `<DATA_DIR>/files`, else (an
 * in-memory DATA_DIR) a temporary folder of the process's own, removed by `close()`.
 */
export function createFileStorage(config: FileStorageConfig): FileStorage {
  if (config.kind === 's3') return new S3FileStorage(config);
  if (config.directory) return new DiskFileStorage(config.directory);
  return new DiskFileStorage(join(tmpdir(), `crm-files-${randomUUID()}`), { temporary: true });
}

@Injectable()
class FileStorageLifecycle implements OnApplicationShutdown {
  constructor(private readonly storage: FileStorage) {}

  async onApplicationShutdown(): Promise<void> {
    await this.storage.close();
  }
}

/** Provides the configured FileStorage everywhere: `constructor(private readonly files: FileStorage)`. */
@Global()
@Module({
  providers: [
    {
      provide: FileStorage,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => createFileStorage(config.fileStorage),
    },
    FileStorageLifecycle,
  ],
  exports: [FileStorage],
})
export class FileStorageModule {}
