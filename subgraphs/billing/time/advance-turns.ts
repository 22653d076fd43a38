/**
 * Turn-taking per key inside one process: the sandbox clock's advances of one organization wait for
 * each other here, in memory, holding nothing (no pooled connection, no transaction), so a burst of
 * advances of one organization costs the database one claim at a time (organization-clocks.ts; the
 * lease in `billing.sandbox_clocks` orders them across processes).
 *
 * Every wait is bounded: a caller whose turn has not come by its deadline leaves the line with the
 * caller's error (its place passes on untouched), and a line already `maxInLine` long refuses a
 * newcomer at once, so clients that time out and retry cannot pile up waiters.
 */
export class AdvanceTurns {
  private readonly lines = new Map<string, Line>();

  constructor(private readonly maxInLine: number) {}

  async inTurn<T>(key: string, deadline: number, busy: () => Error, work: () => Promise<T>): Promise<T> {
    let line = this.lines.get(key);
    if (!line) {
      line = { tail: Promise.resolve(), length: 0 };
      this.lines.set(key, line);
    }
    if (line.length >= this.maxInLine) throw busy();
    const previous = line.tail;
    let leave!: () => void;
    const left = new Promise<void>(resolve => {
      leave = resolve;
    });
    line.tail = previous.then(() => left);
    line.length += 1;
    const joined = line;
    const exit = () => {
      leave();
      joined.length -= 1;
      if (joined.length === 0 && this.lines.get(key) === joined) this.lines.delete(key);
    };
    if (!(await arrivesBy(previous, deadline))) {
      // Gone from the line: when the turn comes, it passes straight on to the next caller.
      void previous.then(exit);
      throw busy();
    }
    try {
      return await work();
    } finally {
      exit();
    }
  }
}

interface Line {
  /** Resolves when the last caller in line has left. */
  tail: Promise<void>;
  /** Callers in line, the one whose turn it is included. */
  length: number;
}

/** Whether `promise` settles before `deadline` (epoch ms). */
async function arrivesBy(promise: Promise<void>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>(resolve => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
