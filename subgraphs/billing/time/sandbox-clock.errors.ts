import { DomainError } from '../../../kit/errors.js';

/**
 * 409: another advance of this organization's sandbox clock was still running when this one had
 * waited as long as it may (SANDBOX_CLOCK_WAIT_MS), or took the clock over after this one's lease ran
 * out. The clock reads what the other advance left; send the advance again once it has answered.
 */
export class SandboxClockBusy extends DomainError {
  constructor(detail: string) {
    super('SandboxClockBusy', detail, 409);
  }
}
