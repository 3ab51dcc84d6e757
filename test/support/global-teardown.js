// After a run: how many e2e responses were validated against the served OpenAPI document, and,
// loudly, every suite that could not run on this machine with the command that makes it run.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const OUTPUT = join(__dirname, '..', '..', 'test-output');

function readAll(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

module.exports = async () => {
  const validated = readAll(join(OUTPUT, 'openapi-validation'));
  if (validated.length > 0) {
    const total = validated.reduce((sum, v) => sum + v.validated, 0);
    process.stdout.write(
      `\nOpenAPI: ${total} e2e responses validated against the served document (${validated.length} test files); a mismatch fails its test.\n`,
    );
  }
  const skipped = readAll(join(OUTPUT, 'skipped-suites'));
  if (skipped.length > 0) {
    const bar = '!'.repeat(100);
    const lines = skipped.map((s) => `!!! SKIPPED SUITE ${s.suite}: ${s.reason}. To run it: ${s.enable}`);
    process.stdout.write(`\n${bar}\n${lines.join('\n')}\n${bar}\n`);
  }
};
