import { join } from 'node:path';
import { EnvReader } from './env-reader';

/** Files in a folder of this machine: `<DATA_DIR>/files`; unset with an in-memory DATA_DIR (a temporary folder then). */
export interface DiskStorageConfig {
  kind: 'disk';
  directory?: string;
}

/** Files in a bucket of an S3-compatible store (AWS S3, MinIO, Ceph, R2...), shared by every instance. */
export interface S3StorageConfig {
  kind: 's3';
  /** `S3_BUCKET`; the bucket must exist (docker-compose.yml creates it) and be the service's alone. */
  bucket: string;
  /** `S3_REGION`, default us-east-1 (what MinIO expects unless configured otherwise). */
  region: string;
  /** `S3_ENDPOINT`, e.g. http://minio:9000; unset: AWS S3 itself. */
  endpoint?: string;
  /** `S3_FORCE_PATH_STYLE`: bucket in the path rather than the host name; default true with S3_ENDPOINT. */
  forcePathStyle: boolean;
  /** `S3_ACCESS_KEY_ID` and `S3_SECRET_ACCESS_KEY`; unset: the AWS SDK's default chain (AWS_* variables, pod or instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** Where attachment files are stored: disk by default, S3 when `S3_BUCKET` is set. */
export type FileStorageConfig = DiskStorageConfig | S3StorageConfig;

const S3_SETTINGS = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];
/** S3's rules for bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, a letter or digit at each end. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION_NAME = /^[a-z0-9-]{1,64}$/;

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

/** Reads the S3_* settings (problems go to `read.problems`; a secret never appears in a message). */
export function readFileStorageConfig(read: EnvReader, dataDir: string): FileStorageConfig {
  const bucket = read.optional('S3_BUCKET');
  if (!bucket) {
    const stray = S3_SETTINGS.filter((name) => read.optional(name) !== undefined);
    if (stray.length > 0)
      read.problems.push(
        `${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set without S3_BUCKET: set S3_BUCKET to store files in S3, ` +
          'or unset the S3_* variables to store files under DATA_DIR',
      );
    return { kind: 'disk', directory: dataDir.startsWith('memory://') ? undefined : join(dataDir, 'files') };
  }
  if (!BUCKET_NAME.test(bucket))
    read.problems.push(
      `S3_BUCKET must be a bucket name: 3 to 63 lowercase letters, digits, dots and hyphens (got '${bucket}')`,
    );
  const endpoint = read.optional('S3_ENDPOINT');
  if (endpoint !== undefined && !isHttpUrl(endpoint))
    read.problems.push(`S3_ENDPOINT must be an http:// or https:// URL such as http://minio:9000 (got '${endpoint}')`);
  const region = read.string('S3_REGION', 'us-east-1');
  if (!REGION_NAME.test(region))
    read.problems.push(`S3_REGION must be a region name such as us-east-1 (got '${region}')`);
  const accessKeyId = read.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = read.optional('S3_SECRET_ACCESS_KEY');
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    read.problems.push(
      `${accessKeyId === undefined ? 'S3_SECRET_ACCESS_KEY is set without S3_ACCESS_KEY_ID' : 'S3_ACCESS_KEY_ID is set without S3_SECRET_ACCESS_KEY'}: ` +
        "set both, or neither to use the AWS SDK's default credentials (AWS_* variables, pod or instance role)",
    );
  return {
    kind: 's3',
    bucket,
    region,
    endpoint,
    forcePathStyle: read.bool('S3_FORCE_PATH_STYLE', endpoint !== undefined),
    credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
  };
}
