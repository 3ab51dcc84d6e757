import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Where suites that cannot run say so; global-teardown prints them at the end of the run. */
export const SKIPPED_DIR = join(__dirname, '..', '..', 'test-output', 'skipped-suites');

/** Records that `suite` is skipped, why, and the one command that makes it run. */
export function announceSkippedSuite(suite: string, reason: string, enable: string): void {
  mkdirSync(SKIPPED_DIR, { recursive: true });
  writeFileSync(join(SKIPPED_DIR, `${suite}.json`), JSON.stringify({ suite, reason, enable }));
}
