import { randomBytes } from 'node:crypto';
import { type Clock, JumpListeners, systemClock } from '../../kit/clock.js';
import type { EnvironmentName } from '../../kit/config.js';
import { createMigratedDatabase, runDatabasePrefix } from './database-template.js';
import { testServerUrl } from './database.js';
import { startTestStack, type TestStack } from './stack.js';

/**
 * The worker's shared stack: both environments as `startTestStack` builds them (the test configuration),
 * started by the first file that asks and kept for every later file of the same worker
 * (docs/testing.md#one-stack-per-worker). Starting and closing a stack of its own cost a file about 4 s of
 * CPU (two database copies and drops, two environments, about 24 new PostgreSQL sessions), and its first
 * requests paid each environment's warm-up again.
 *
 * A file may share it when everything it asserts is about its own tenants, reached over HTTP or through the
 * stack's admin: other files' organizations, rows, jobs and webhook retries are there too. Its clock is the
 * file's: `sharedTestStack(clock)` points the stack's clock at the file's own (the wall clock by default), as
 * the files of a worker run one after the other. A file that needs its own configuration, stops or replaces
 * a part of an environment, or asserts on a whole table, starts its own with `startTestStack`.
 *
 * The file does not close it: `close()` of the handle it gets does nothing. The stack ends with its worker.
 * Its databases carry the run's id and are dropped by global tear-down. When the files run in Jest's own
 * process (`--maxWorkers=1`), the stack would keep that process alive after the run: global tear-down
 * closes it first, through `CLOSE_SHARED_STACK` (a global, so that tear-down need not load the stack's
 * modules when the files ran in workers).
 */
let shared: Promise<TestStack> | undefined;

const CLOSE_SHARED_STACK = Symbol.for('billing.test.closeSharedStack');

/**
 * The clock the shared stack was started with: it reads the clock of the file now running. Pointing it
 * elsewhere is a jump, so the environments' background workers look again at what is due
 * (kit/background/background-work.ts), as after a ManualClock's `advance`.
 */
class FileClock implements Clock {
  private target: Clock = systemClock;
  private unwatchTarget: (() => void) | undefined;
  private readonly listeners = new JumpListeners();

  now(): Date {
    return this.target.now();
  }

  watch(listener: () => void): () => void {
    return this.listeners.add(listener);
  }

  use(target: Clock): void {
    if (target === this.target) return;
    this.unwatchTarget?.();
    this.target = target;
    this.unwatchTarget = target.watch?.(() => this.listeners.jumped());
    this.listeners.jumped();
  }
}

const fileClock = new FileClock();

export async function sharedTestStack(clock: Clock = systemClock): Promise<TestStack> {
  // A start that failed is tried again by the next file, not handed to every later one.
  shared ??= startShared().catch(error => {
    shared = undefined;
    throw error;
  });
  const stack = await shared;
  fileClock.use(clock);
  return { production: stack.production, sandbox: stack.sandbox, close: async () => undefined };
}

async function startShared(): Promise<TestStack> {
  const runId = process.env.TEST_RUN_ID;
  if (!runId) throw new Error('TEST_RUN_ID is not set: run the tests through jest (global set-up names the run).');
  const server = testServerUrl();
  const tag = `shared_${process.pid}_${randomBytes(3).toString('hex')}`;
  const names: EnvironmentName[] = ['production', 'sandbox'];
  const [production, sandbox] = await Promise.all(
    names.map(name => createMigratedDatabase(server, `${runDatabasePrefix(runId)}${tag}_${name}`)),
  );
  const stack = await startTestStack('shared', fileClock, {}, { production: production.url, sandbox: sandbox.url });
  (globalThis as Record<symbol, unknown>)[CLOSE_SHARED_STACK] = async () => {
    shared = undefined;
    await stack.close();
  };
  return stack;
}
