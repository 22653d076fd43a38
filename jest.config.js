import { availableParallelism } from 'node:os';

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
  // Set-up and tear-down hooks get 5 minutes (they wait on readiness): test/support/setup-hooks.ts.
  setupFilesAfterEnv: ['<rootDir>/test/support/setup-hooks.ts'],
  // Each worker runs a file's servers and its share of PostgreSQL: two fit two cores, more only thrash.
  // A one-core machine gets one. `--maxWorkers` overrides it.
  maxWorkers: Math.max(1, Math.min(2, availableParallelism())),
  // The run's wall time and its ten slowest files, printed at the end (docs/performance.md).
  reporters: ['default', '<rootDir>/test/support/budget-reporter.mjs'],
  // The longest files first, from the recorded durations when Jest's cache has none (a fresh clone).
  testSequencer: '<rootDir>/test/support/test-sequencer.mjs',
  // A worker that has run many stacks grows; it is replaced past this size instead of running out of memory.
  workerIdleMemoryLimit: '1GB',
};
