// Before a run: clears the per-file counts of OpenAPI-validated responses, the list of skipped suites and
// the logs of the PostgreSQL servers the suites started.
const { rmSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async () => {
  const output = join(__dirname, '..', '..', 'test-output');
  rmSync(join(output, 'openapi-validation'), { recursive: true, force: true });
  rmSync(join(output, 'skipped-suites'), { recursive: true, force: true });
  rmSync(join(output, 'embedded-postgres'), { recursive: true, force: true });
};
