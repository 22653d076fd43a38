/**
 * Set-up and tear-down hooks wait on readiness (a server listening, migrations done, a stack closed),
 * which a busy machine makes slower, not wrong; Jest's default budget for them is the 30 s of a test,
 * which failed whole files on a loaded two-core machine (issue 29). A hook given no timeout of its own
 * gets SETUP_TIMEOUT_MS instead; tests keep theirs. Files that import the hooks from `@jest/globals`
 * pass their own timeouts.
 */
const SETUP_TIMEOUT_MS = 300_000;

type Hook = (fn: (...args: any[]) => any, timeout?: number) => void;
const hooks = globalThis as unknown as Record<'beforeAll' | 'afterAll', Hook>;
for (const name of ['beforeAll', 'afterAll'] as const) {
  const original = hooks[name];
  hooks[name] = (fn, timeout) => original(fn, timeout ?? SETUP_TIMEOUT_MS);
}
