/**
 * Looks until `done` answers true or `withinMs` has passed by the wall clock, one look every `everyMs`:
 * a deadline, not a number of looks, since a busy machine makes each look slower (docs/testing.md#time-limits).
 * Answers whether it became true; the caller says what was missing.
 */
export async function until(done: () => Promise<boolean> | boolean, withinMs: number, everyMs = 50): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (await done()) return true;
    if (Date.now() >= deadline) return false;
    await new Promise(resolve => setTimeout(resolve, everyMs));
  }
}

/**
 * The first value `probe` gives that is neither undefined nor null, looking as `until` does; undefined when
 * none came within `withinMs`.
 */
export async function firstValue<T>(
  probe: () => Promise<T | undefined | null>,
  withinMs: number,
  everyMs = 50,
): Promise<T | undefined> {
  let value: T | undefined | null;
  await until(async () => (value = await probe()) != null, withinMs, everyMs);
  return value ?? undefined;
}
