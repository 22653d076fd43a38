// The test suite's budget (docs/performance.md#the-test-suites-budget): at the end of a run, its wall
// time and the ten slowest test files, so a file that grows heavy is seen before CI's 90 minutes are.
// Plain ESM: Jest loads reporters outside its transformer.
export default class BudgetReporter {
  constructor() {
    this.started = Date.now();
    this.files = [];
  }

  onRunStart() {
    this.started = Date.now();
  }

  onTestResult(test, result) {
    const { start, end } = result.perfStats;
    const seconds = (end - start) / 1000;
    this.files.push({
      path: test.path.replace(`${test.context.config.rootDir}/`, ''),
      seconds,
      failed: result.numFailingTests > 0 || !!result.testExecError,
    });
  }

  onRunComplete(_contexts, results) {
    const wall = (Date.now() - this.started) / 1000;
    const slowest = [...this.files].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    const lines = [
      '',
      `Test run: ${results.numTotalTestSuites} files, ${results.numTotalTests} tests in ${minutes(wall)} (wall clock).`,
      'Slowest files:',
      ...slowest.map(f => `  ${minutes(f.seconds).padStart(8)}  ${f.path}${f.failed ? '  (failed)' : ''}`),
      '',
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
  }
}

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  const s = (seconds - m * 60).toFixed(1);
  return m ? `${m} min ${s} s` : `${s} s`;
}
