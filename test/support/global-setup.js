// Clears the per-file counts of OpenAPI-validated responses before a run.
const { rmSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async () => {
  rmSync(join(__dirname, '..', '..', 'test-output', 'openapi-validation'), { recursive: true, force: true });
};
