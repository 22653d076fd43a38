import { availableParallelism } from 'node:os';

// Without the module hooks, every test file would fail on its first TypeScript import: say what to run instead.
if (!process.execArgv.some(arg => arg.includes('module-hooks.mjs'))) {
  throw new Error(
    'Run the tests with `npm test` (`npm test -- <files>` for some), or with ' +
      '`node_modules/.bin/node --import ./test/support/module-hooks.mjs node_modules/jest/bin/jest.js <files>`: ' +
      'the workers load the TypeScript sources through those module hooks (docs/testing.md).',
  );
}

/** Jest runs each test file in a long-lived worker process that keeps the modules it has loaded
 * (jest-light-runner): an environment's modules are loaded once per worker, not once per file. Node loads
 * the TypeScript sources itself, compiled by SWC with decorator metadata through the module hooks that
 * `npm test` passes with `--import` (test/support/module-hooks.mjs; docs/testing.md). */
export default {
  runner: ['jest-light-runner', { runtime: 'child_process' }],
  testMatch: ['<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/.data/'],
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
  // Decorator metadata for type-graphql, then every test's and hook's time limit (the runner has none of its
  // own): 30 s a test, 5 minutes a set-up or tear-down hook, which waits on readiness.
  setupFiles: ['reflect-metadata'],
  setupFilesAfterEnv: ['<rootDir>/test/support/setup-hooks.ts'],
  // Each worker runs a file's servers and its share of PostgreSQL: two fit two cores, more only thrash.
  // A one-core machine gets one. `--maxWorkers` overrides it.
  maxWorkers: Math.max(1, Math.min(2, availableParallelism())),
  // The run's wall time and its ten slowest files, printed at the end (docs/performance.md).
  reporters: ['default', '<rootDir>/test/support/budget-reporter.mjs'],
  // The longest files first, from the recorded durations when Jest's cache has none (a fresh clone).
  testSequencer: '<rootDir>/test/support/test-sequencer.mjs',
};
