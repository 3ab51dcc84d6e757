/** Unit tests sit beside the code (src/**\/*.spec.ts); e2e tests boot the real app (test/**\/*.e2e-spec.ts). */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }] };
/**
 * @fastify/static (Swagger UI assets on the Fastify adapter) requires content-disposition 3, which
 * is ESM only: Node >= 20.19 loads it with require(esm), jest's module loader cannot. In tests only,
 * it resolves to the CommonJS content-disposition 1.x that Express already installs (same API).
 */
const moduleNameMapper = { '^content-disposition$': require.resolve('content-disposition') };

/** Never crawl the build output (dist/ holds compiled copies of every file, specs included). */
const ignore = {
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/dist/'],
};

module.exports = {
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'], transform, testEnvironment: 'node', ...ignore },
    {
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      moduleNameMapper,
      testEnvironment: 'node',
      slowTestThreshold: 30,
      ...ignore,
    },
  ],
  // Two workers at least: on 2 cores jest's default (cores - 1) runs every file in band, in one
  // process whose heap keeps what each file leaves behind (it ran out of 4 GB in CI); a worker
  // holding more than 1 GB after a file is replaced before the next one.
  maxWorkers: Math.max(2, require('node:os').availableParallelism() - 1),
  workerIdleMemoryLimit: '1GB',
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
};
