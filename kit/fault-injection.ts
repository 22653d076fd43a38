/**
 * Crash points for tests that prove a step survives a process dying in the middle of it (the
 * checkout's charge before its order commits, …). `FAULT_INJECTION_EXIT_AT=<point>` in the
 * environment makes the process exit at once, without cleanup, when it reaches that point, exactly
 * as a `kill -9` there would. Unset (always, outside such tests) it does nothing.
 */
export function faultPoint(point: string): void {
  if (process.env.FAULT_INJECTION_EXIT_AT === point) {
    process.stderr.write(`fault injection: exiting at ${point}\n`);
    process.exit(86);
  }
}
