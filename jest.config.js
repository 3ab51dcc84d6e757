/** Unit tests sit beside the code (src/**\/*.spec.ts); e2e tests boot the real app (test/**\/*.e2e-spec.ts). */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.spec.json', diagnostics: false }] };

module.exports = {
  projects: [
    { displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'], transform, testEnvironment: 'node' },
    {
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      transform,
      testEnvironment: 'node',
      slowTestThreshold: 30,
    },
  ],
  testTimeout: 120000,
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
};
