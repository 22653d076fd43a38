/** Time is injected so billing and expiry can be tested by moving a clock, never by sleeping. */
export interface Clock {
  now(): Date;
  /**
   * A clock that jumps (tests' ManualClock) calls `listener` after each jump, so a background loop
   * waiting for an instant by this clock looks again (kit/background/background-work.ts); answers the unsubscribe.
   * The system clock never jumps and has none.
   */
  watch?(listener: () => void): () => void;
}

export const systemClock: Clock = { now: () => new Date() };

/** Who watches a clock that jumps (`Clock.watch`): each listener is called after every jump. */
export class JumpListeners {
  private readonly listeners = new Set<() => void>();

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called by the clock after it jumped; a listener may unsubscribe while it runs. */
  jumped(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private readonly listeners = new JumpListeners();

  constructor(private current: Date) {}
  now(): Date {
    return new Date(this.current.getTime());
  }
  set(at: Date): void {
    this.current = new Date(at.getTime());
    this.listeners.jumped();
  }
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
    this.listeners.jumped();
  }
  watch(listener: () => void): () => void {
    return this.listeners.add(listener);
  }
}
