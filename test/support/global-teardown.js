// Prints how many e2e responses were validated against the served OpenAPI document.
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async () => {
  const dir = join(__dirname, '..', '..', 'test-output', 'openapi-validation');
  if (!existsSync(dir)) return;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  const total = files.reduce((sum, f) => sum + JSON.parse(readFileSync(join(dir, f), 'utf8')).validated, 0);
  process.stdout.write(`\nOpenAPI: ${total} e2e responses validated against the served document (${files.length} test files); a mismatch fails its test.\n`);
};
