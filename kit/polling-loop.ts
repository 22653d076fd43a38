/**
 * The loop of a background relay: run a step, then wait for the poll interval unless the step says more
 * work is waiting, or until `wake()` (new work was just written) cuts the wait short. `stop()` ends
 * the wait and resolves once the step in flight has finished.
 */
export interface PollingStep {
  /** One pass; true when more work is waiting now (no pause before the next pass). */
  run(): Promise<boolean>;
  /** A pass threw: log it; the loop waits `errorPauseMs` and tries again. */
  failed(error: unknown): void;
}

export class PollingLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly step: PollingStep,
    private readonly pollMs: number,
    private readonly errorPauseMs: number,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let pause = 0;
      try {
        if (!(await this.step.run())) pause = this.pollMs;
      } catch (error) {
        this.step.failed(error);
        pause = this.errorPauseMs;
      }
      if (pause > 0 && this.running)
        await new Promise<void>(resolve => {
          const timer = setTimeout(done, pause);
          function done() {
            clearTimeout(timer);
            resolve();
          }
          this.wakeUp = done;
        });
    }
  }
}
