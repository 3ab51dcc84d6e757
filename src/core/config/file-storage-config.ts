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

/** Limits, links and cleanup of attachment files (API.md section 16). */
export interface FilesConfig {
  /** `FILE_MAX_BYTES` (a size such as 100mb; default 100 MiB): a bigger upload is a 413 as soon as the limit is passed. */
  maxBytes: number;
  /** `FILE_DENIED_TYPES` (comma-separated media types): an upload whose detected type is one of them is a 415. */
  deniedTypes: ReadonlySet<string>;
  /** `FILE_LINK_TTL_SECONDS` (default 900): how long a signed download link works. */
  linkTtlSeconds: number;
  /** `FILE_LINK_SECRET` (optional): the key of signed links; unset, one derived from the master key (ENCRYPTION_KEY). */
  linkSecret?: string;
  /** `PUBLIC_URL` (optional): the service's public base URL, e.g. https://crm.example.com; unset, from the request's Host. */
  publicUrl?: string;
  /** `FILE_CLEANUP_INTERVAL_MS` (default 60000): how often stored files of hard-deleted attachments are removed (retries included). */
  cleanupIntervalMs: number;
  /** `FILE_SWEEP_INTERVAL_MS` (default 600000): how often stored files that no attachment points to are looked for. */
  sweepIntervalMs: number;
  /** `FILE_ORPHAN_AGE_MS` (default 3600000): a stored file with no attachment older than this is removed by the sweep. */
  orphanAgeMs: number;
}

/** The executable formats refused by default (names as file-type detects them). */
export const DEFAULT_DENIED_TYPES = [
  'application/x-msdownload',
  'application/vnd.microsoft.portable-executable',
  'application/x-executable',
  'application/x-elf',
  'application/x-sharedlib',
];

/** Reads the FILE_* settings and PUBLIC_URL (problems go to `read.problems`). */
export function readFilesConfig(read: EnvReader): FilesConfig {
  const maxBytes = read.size('FILE_MAX_BYTES', '100mb', 1, '100mb or 104857600');
  const denied = read.optional('FILE_DENIED_TYPES');
  const publicUrl = read.optional('PUBLIC_URL');
  if (publicUrl !== undefined && !isHttpUrl(publicUrl))
    read.problems.push(
      `PUBLIC_URL must be an http:// or https:// URL such as https://crm.example.com (got '${publicUrl}')`,
    );
  const linkSecret = read.optional('FILE_LINK_SECRET');
  if (linkSecret !== undefined && linkSecret.length < 32)
    read.problems.push('FILE_LINK_SECRET must be at least 32 characters (generate one with: openssl rand -base64 32)');
  return {
    maxBytes,
    deniedTypes: new Set(
      (denied ?? DEFAULT_DENIED_TYPES.join(','))
        .split(',')
        .map((type) => type.trim().toLowerCase())
        .filter(Boolean),
    ),
    linkTtlSeconds: read.int('FILE_LINK_TTL_SECONDS', 900, 1, 7 * 24 * 3600),
    linkSecret,
    publicUrl: publicUrl?.replace(/\/+$/, ''),
    cleanupIntervalMs: read.int('FILE_CLEANUP_INTERVAL_MS', 60_000, 10, 86_400_000),
    sweepIntervalMs: read.int('FILE_SWEEP_INTERVAL_MS', 600_000, 10, 86_400_000),
    orphanAgeMs: read.int('FILE_ORPHAN_AGE_MS', 3_600_000, 0, 30 * 86_400_000),
  };
}
