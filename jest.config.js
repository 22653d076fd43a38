/** Jest runs the TypeScript sources as native ESM, compiled by SWC with decorator metadata
 * (MikroORM's ReflectMetadataProvider and type-graphql both read `design:type`). */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { swcrc: true }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  testTimeout: 30000,
  maxWorkers: 2,
  // A worker that has run many stacks grows; it is replaced past this size instead of running out of memory.
  workerIdleMemoryLimit: '1GB',
};
