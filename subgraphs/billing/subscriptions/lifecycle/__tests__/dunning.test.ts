import {
  afterFailedAttempt,
  canRetryManually,
  dunningDeadline,
  dunningSchedule,
  MAX_MANUAL_PAYMENT_ATTEMPTS,
} from '../dunning.js';

const DAY = 86_400_000;
const pastDueAt = new Date('2026-03-01T00:00:00Z');
const plus = (days: number) => new Date(pastDueAt.getTime() + days * DAY);

describe('the automatic retries', () => {
  it('are at +2, +7, +14 and +21 days when each attempt fails on time', () => {
    expect(dunningSchedule(pastDueAt)).toEqual([plus(2), plus(7), plus(14), plus(21)]);
  });

  it.each([
    ['the renewal charge fails: retry after 2 days', 1, 0, { action: 'retry', at: plus(2) }],
    ['the 1st retry fails: after 5 more', 2, 2, { action: 'retry', at: plus(7) }],
    ['the 2nd retry fails: after 7 more', 3, 7, { action: 'retry', at: plus(14) }],
    ['the 3rd retry fails: after 7 more', 4, 14, { action: 'retry', at: plus(21) }],
    ['the 4th retry fails: revoke', 5, 21, { action: 'revoke' }],
    ['a late retry counts from its own failure', 2, 3, { action: 'retry', at: plus(8) }],
  ])('%s', (_name, failedAttempts, failedOnDay, expected) => {
    expect(afterFailedAttempt({ failedAttempts, failedAt: plus(failedOnDay), pastDueAt, recoverable: true })).toEqual(
      expected,
    );
  });

  it('a non-recoverable decline jumps to the deadline, which then revokes', () => {
    const deadline = dunningDeadline(pastDueAt);
    expect(deadline).toEqual(new Date(plus(21).getTime() + 60_000));
    expect(afterFailedAttempt({ failedAttempts: 1, failedAt: pastDueAt, pastDueAt, recoverable: false })).toEqual({
      action: 'retry',
      at: deadline,
    });
    expect(afterFailedAttempt({ failedAttempts: 2, failedAt: deadline, pastDueAt, recoverable: true })).toEqual({
      action: 'revoke',
    });
  });

  it('refuses an attempt count below 1', () => {
    expect(() => afterFailedAttempt({ failedAttempts: 0, failedAt: pastDueAt, pastDueAt, recoverable: true })).toThrow(
      RangeError,
    );
  });
});

describe('manual payment from the portal', () => {
  it('allows at most 5 tries', () => {
    expect(MAX_MANUAL_PAYMENT_ATTEMPTS).toBe(5);
    expect([0, 4, 5, 6].map(canRetryManually)).toEqual([true, true, false, false]);
  });
});
