import { ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3StorageConfig } from '../../src/core/config/file-storage-config';

/**
 * An S3-compatible server of the caller's own (s3rver from npm, in a child process: see
 * s3rver-child.js), on 127.0.0.1 and a free port, in a temporary folder, with one bucket.
 */
export class S3TestServer {
  private readonly exitHook = () => this.child.kill('SIGKILL');

  private constructor(
    private readonly child: ChildProcess,
    /** The folder s3rver stores the bucket in. */
    readonly directory: string,
    readonly bucket: string,
    readonly port: number,
  ) {
    process.once('exit', this.exitHook);
  }

  /** Starts a server (about half a second) with bucket `bucket`. */
  static async start(bucket = 'crm-files-test'): Promise<S3TestServer> {
    const directory = mkdtempSync(join(tmpdir(), 'crm-s3rver-'));
    const child = spawn(
      process.execPath,
      ['--openssl-legacy-provider', join(__dirname, 's3rver-child.js'), directory, bucket],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-10_000)));
    const port = await new Promise<number>((resolve, reject) => {
      let stdout = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const line = /^(\{.*\})\n/.exec(stdout);
        if (line) resolve((JSON.parse(line[1]) as { port: number }).port);
      });
      child.once('exit', (code) => reject(new Error(`s3rver exited (${code}) before listening:\n${stderr}`)));
    });
    return new S3TestServer(child, directory, bucket, port);
  }

  /** Settings for S3FileStorage: path-style requests, s3rver's fixed credentials. */
  get config(): S3StorageConfig {
    return {
      kind: 's3',
      bucket: this.bucket,
      region: 'us-east-1',
      endpoint: `http://127.0.0.1:${this.port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    };
  }

  /** Multipart uploads neither completed nor aborted: one folder each, holding its parts. */
  pendingUploads(): string[] {
    const uploads = join(this.directory, this.bucket, '._S3rver_uploads');
    return existsSync(uploads) ? readdirSync(uploads) : [];
  }

  /** Part files of the pending uploads. */
  pendingParts(): string[] {
    const uploads = join(this.directory, this.bucket, '._S3rver_uploads');
    return this.pendingUploads().flatMap((id) => readdirSync(join(uploads, id)).filter((name) => /^\d+$/.test(name)));
  }

  /** Stops the server and deletes its folder. */
  async stop(): Promise<void> {
    process.removeListener('exit', this.exitHook);
    if (this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.kill('SIGTERM');
      await exited;
    }
    rmSync(this.directory, { recursive: true, force: true });
  }
}
