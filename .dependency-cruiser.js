/**
 * Layer rules of src/ (see docs/architecture.md): a request flows downhill and so do imports.
 * Layers of src/core from the bottom up; a folder may import its own layer and those below it.
 * `npm run lint:layers` checks them (CI runs it).
 */
const LAYERS = [
  ['config', 'errors', 'fields', 'metrics', 'tracing'], // facts: configuration, error types, field declarations; the metrics registry; the tracing SDK and its helpers
  ['model', 'security', 'validation'], // collection metadata, records, actor; keys; body validation
  ['database', 'files', 'query'], // the connection, entities and migrations; stored files; the query language and compiler
  ['access'], // a key's grants compiled (their filters through the query language) and the write checks; query never imports it
  ['repository'], // one statement owner per collection, record codecs
  ['cache', 'changes', 'events', 'idempotency', 'records'], // services: typed inputs only
  ['imports'], // import jobs: a pipeline over the record services' rules and the statement owners
  ['auth', 'health', 'http', 'logging', 'mcp', 'observability', 'openapi', 'rest', 'routes'], // the HTTP edge (REST and MCP) and its route table; the metrics listener
];

const folder = (names) => `^src/core/(${names.join('|')})/`;

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${i}-imports-upward`,
  severity: 'error',
  comment: `src/core/{${layer.join(',')}} must not import a layer above it`,
  from: { path: folder(layer) },
  to: { path: folder(LAYERS.slice(i + 1).flat()) },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'core-imports-collections',
      severity: 'error',
      comment: 'core knows no collection: collections register with core, core never names them',
      from: { path: '^src/core/' },
      to: { path: '^src/collections/' },
    },
    {
      name: 'core-imports-app',
      severity: 'error',
      comment: 'core never imports the application root or the command-line tools',
      from: { path: '^src/core/' },
      to: { path: '^src/(app\\.|main\\.|cli/)' },
    },
    {
      name: 'core-folder-unlisted',
      severity: 'error',
      comment: 'every folder of src/core belongs to a layer (add a new one to LAYERS)',
      from: { path: '^src/core/', pathNot: folder(LAYERS.flat()) },
      to: {},
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles',
      from: { path: '^src/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.spec\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
