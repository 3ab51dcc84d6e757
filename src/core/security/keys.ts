import { Logger } from '@nestjs/common';
import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';

/** Decodes a 32-byte key given as base64, base64url or hex. */
export function decodeKey(raw: string): Buffer {
  const text = raw.trim();
  const candidates = [/^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : undefined, Buffer.from(text, 'base64')];
  const key = candidates.find((k) => k?.length === 32);
  if (!key)
    throw new Error('ENCRYPTION_KEY must be 32 bytes, as 64 hex characters or base64 (openssl rand -base64 32)');
  return key;
}

/**
 * The master key: `ENCRYPTION_KEY`, or on the embedded default a key generated once and kept
 * in the data folder (`<DATA_DIR>/encryption.key`, mode 0600).
 */
export function loadMasterKey(config: AppConfig): Buffer {
  if (config.encryptionKey) return decodeKey(config.encryptionKey);
  if (config.dataDir.startsWith('memory://')) return randomBytes(32);
  const file = join(config.dataDir, 'encryption.key');
  if (existsSync(file)) return decodeKey(readFileSync(file, 'utf8'));
  mkdirSync(config.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  new Logger('Keys').log(`generated a new encryption key in ${file}; back it up with the data folder`);
  return key;
}

/** Derives an independent sub-key per purpose, so one secret serves encryption and signatures. */
export function deriveKey(
  master: Buffer,
  purpose: 'field-encryption' | 'cursor-signing' | 'etag' | 'file-link',
): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.from('crm-record-service'), Buffer.from(purpose), 32));
}

/** The keys the service derives from its master key, created once at start-up. */
export class KeyRing {
  readonly cursorKey: Buffer;
  readonly fieldKey: Buffer;
  /** Keys the ETags of records (see records/etag.ts). */
  readonly etagKey: Buffer;
  /** Keys signed file download links (API.md section 16), unless FILE_LINK_SECRET gives one. */
  readonly fileLinkKey: Buffer;

  constructor(master: Buffer) {
    this.cursorKey = deriveKey(master, 'cursor-signing');
    this.fieldKey = deriveKey(master, 'field-encryption');
    this.etagKey = deriveKey(master, 'etag');
    this.fileLinkKey = deriveKey(master, 'file-link');
  }
}
