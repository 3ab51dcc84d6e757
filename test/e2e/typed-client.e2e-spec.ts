import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, TestApp } from '../support/test-app';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const CLIENT = join(ROOT, 'test', 'typed-client');

/** Generates TypeScript types from the served document, compiles a client with them, runs it. */
describe('typed client (openapi-typescript + openapi-fetch)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('generates, compiles with tsc --noEmit, and runs create / list / get / update / delete / import', async () => {
    mkdirSync(join(CLIENT, 'generated'), { recursive: true });
    const docPath = join(CLIENT, 'generated', 'openapi.json');
    writeFileSync(docPath, JSON.stringify((await t.http.get('/open-api/core')).body));
    await run(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'),
        docPath,
        '--default-non-nullable=false',
        '-o',
        join(CLIENT, 'generated', 'schema.d.ts'),
      ],
      { cwd: ROOT },
    );
    const tsc = await run(
      process.execPath,
      [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT, 'tsconfig.json')],
      { cwd: ROOT },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
    expect(tsc).toEqual({ stdout: '', stderr: '' });
    const { stdout } = await run(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', join(CLIENT, 'client.ts')],
      {
        cwd: ROOT,
        env: { ...process.env, BASE_URL: t.baseUrl, TOKEN: t.token, TS_NODE_PROJECT: join(CLIENT, 'tsconfig.json') },
      },
    );
    expect(stdout).toContain('typed client: create, list, get, update, delete, import OK');
  });
});
