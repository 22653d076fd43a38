// `npm test`: the type check, the lint, the schema check, then Jest (arguments after `--` go to Jest), and
// at the end how long each took and the whole (docs/performance.md#the-test-suites-budget). The first step
// that fails stops the run with its exit code. Plain ESM, run by the project's Node.
import { spawn } from 'node:child_process';

const steps = [
  ['type check', 'npm', ['run', '-s', 'typecheck']],
  ['lint', 'npm', ['run', '-s', 'lint']],
  ['schema check', 'npm', ['run', '-s', 'schema:check']],
  [
    'Jest',
    process.execPath,
    ['--import', './test/support/module-hooks.mjs', 'node_modules/jest/bin/jest.js', ...process.argv.slice(2)],
  ],
];

let running;
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => running?.kill(signal));

const started = Date.now();
const took = [];
for (const [name, command, args] of steps) {
  const stepStarted = Date.now();
  const code = await new Promise(resolve => {
    running = spawn(command, args, { stdio: 'inherit' });
    running.once('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0)));
  });
  took.push(`${name} ${duration(Date.now() - stepStarted)}`);
  if (code !== 0) {
    process.stderr.write(`\nnpm test: ${name} failed (exit code ${code}) after ${duration(Date.now() - started)}.\n`);
    process.exit(code);
  }
}
process.stderr.write(`\nnpm test: passed in ${duration(Date.now() - started)} (${took.join(', ')}).\n`);

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds >= 60 ? `${Math.floor(seconds / 60)} min ${seconds % 60} s` : `${seconds} s`;
}
