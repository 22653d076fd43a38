/**
 * Time limits for the tests and their hooks (docs/testing.md). The suite runs on jest-light-runner, which
 * imports each test file into a long-lived worker and shares the modules already loaded there, and which
 * enforces no timeout of its own. This file, loaded once per worker (`setupFilesAfterEnv`), gives each test
 * and hook a limit, as Jest would:
 * - a test or an each-hook: its own timeout, else the file's `jest.setTimeout`, else TEST_TIMEOUT_MS;
 * - a set-up or tear-down hook (`beforeAll`, `afterAll`): its own, else SETUP_TIMEOUT_MS,
 *   because they wait on readiness (a server listening, a stack closed) that a busy machine makes slower,
 *   not wrong (issue 29: whole files failed at 30 s on a loaded two-core machine).
 * A test past its limit fails with the limit in its message; what it was awaiting is left to finish.
 */
const TEST_TIMEOUT_MS = 30_000;
const SETUP_TIMEOUT_MS = 300_000;

type TestFn = (...args: any[]) => unknown;
type Register = (name: any, fn?: TestFn, timeout?: number) => unknown;

/** Each file's `jest.setTimeout`, by file. */
const fileTimeouts = new Map<string, number>();
/** The file being loaded: the runner sets it before it imports the file, which registers its tests. */
const currentFile = () => (expect.getState() as { testPath?: string }).testPath ?? '';
const fileTimeout = () => fileTimeouts.get(currentFile()) ?? TEST_TIMEOUT_MS;

(jest as unknown as { setTimeout: (ms: number) => unknown }).setTimeout = (ms: number) => {
  fileTimeouts.set(currentFile(), ms);
  return jest;
};

function limited(fn: TestFn, ms: number, what: string): TestFn {
  return (...args: unknown[]) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Exceeded timeout of ${ms} ms for ${what}.`)), ms);
    });
    return Promise.race([Promise.resolve().then(() => fn(...args)), expired]).finally(() => clearTimeout(timer));
  };
}

const globals = globalThis as unknown as Record<string, Register & Record<string, any>>;

function limitTests(name: 'test' | 'it'): void {
  const original = globals[name];
  const limit = (fn: TestFn | undefined, timeout?: number) => fn && limited(fn, timeout ?? fileTimeout(), 'a test');
  const limiting = (register: Register) => (title: any, fn?: TestFn, timeout?: number) =>
    register(title, limit(fn, timeout), timeout);
  const each =
    (table: (...args: any[]) => (title: any, fn: TestFn, timeout?: number) => unknown) =>
    (...rows: any[]) =>
    (title: any, fn: TestFn, timeout?: number) =>
      table(...rows)(title, limit(fn, timeout)!, timeout);
  const wrapped = Object.assign(limiting(original), original, {
    only: Object.assign(limiting(original.only), { each: each(original.only.each) }),
    each: each(original.each),
  });
  globals[name] = wrapped;
}

function limitHooks(name: 'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach', fallback: () => number): void {
  const original = globals[name] as unknown as (fn: TestFn, timeout?: number) => unknown;
  globals[name] = ((fn: TestFn, timeout?: number) =>
    original(limited(fn, timeout ?? fallback(), `a ${name} hook`), timeout)) as never;
}

limitTests('test');
limitTests('it');
limitHooks('beforeAll', () => SETUP_TIMEOUT_MS);
limitHooks('afterAll', () => SETUP_TIMEOUT_MS);
limitHooks('beforeEach', fileTimeout);
limitHooks('afterEach', fileTimeout);
