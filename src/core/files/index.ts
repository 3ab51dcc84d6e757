export * from './file-storage';
export * from './file-storage-errors';
export * from './object-keys';
export { DiskFileStorage } from './disk-file-storage';
export { S3FileStorage, type S3FileStorageOptions } from './s3-file-storage';
export { createFileStorage, FileStorageModule } from './file-storage.module';
export * from './file-meter';
export * from './byte-ranges';
export * from './file-links';
