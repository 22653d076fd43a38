// The test suite's budget (docs/performance.md#the-test-suites-budget): at the end of a run, its wall
// time and the ten slowest test files, so a file that grows heavy is seen before CI's 90 minutes are.
// Plain ESM: Jest loads reporters outside its transformer.
import { writeFileSync } from 'node:fs';

export default class BudgetReporter {
  constructor() {
    this.started = Date.now();
    this.files = [];
    this.fileStarted = new Map();
  }

  onRunStart() {
    this.started = Date.now();
  }

  onTestFileStart(test) {
    this.fileStarted.set(test.path, Date.now());
  }

  onTestResult(test, result) {
    // From the moment the file went to its worker (the runner's own figures start after the file's import).
    const seconds = (Date.now() - (this.fileStarted.get(test.path) ?? this.started)) / 1000;
    // What the tests themselves took; the rest of the file's time is loading its modules (once per worker),
    // its set-up and tear-down hooks (stacks, databases, browsers) and the top-level awaits of the file.
    const inTests = result.testResults.reduce((sum, t) => sum + (t.duration ?? 0), 0) / 1000;
    this.files.push({
      path: test.path.replace(`${test.context.config.rootDir}/`, ''),
      seconds,
      setUp: Math.max(0, seconds - inTests),
      failed: result.numFailingTests > 0 || !!result.testExecError,
    });
  }

  onRunComplete(_contexts, results) {
    const wall = (Date.now() - this.started) / 1000;
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const total = this.files.reduce((sum, f) => sum + f.seconds, 0);
    const setUp = this.files.reduce((sum, f) => sum + f.setUp, 0);
    const lines = [
      '',
      `Test run: ${results.numTotalTestSuites} files, ${results.numTotalTests} tests in ${minutes(wall)} (wall clock).`,
      `Files' own time: ${minutes(total)}, of which ${minutes(setUp)} outside the tests (modules, set-up, tear-down).`,
      'Slowest files (their time outside the tests in brackets):',
      ...slowest.map(
        f => `  ${minutes(f.seconds).padStart(8)}  (${minutes(f.setUp)})  ${f.path}${f.failed ? '  (failed)' : ''}`,
      ),
      '',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    // `TEST_DURATIONS_FILE=test/support/test-durations.json` records every file's time for the sequencer
    // (test/support/test-sequencer.mjs), which runs the longest files first on a clone with no Jest cache.
    const out = process.env.TEST_DURATIONS_FILE;
    if (out) {
      const durations = Object.fromEntries(
        [...this.files].sort((a, b) => a.path.localeCompare(b.path)).map(f => [f.path, Math.round(f.seconds)]),
      );
      writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
    }
  }
}

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  const s = (seconds - m * 60).toFixed(1);
  return m ? `${m} min ${s} s` : `${s} s`;
}
