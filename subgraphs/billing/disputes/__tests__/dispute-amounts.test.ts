import { disputeStatusOf } from '../../payments/stripe/stripe-webhooks.js';
import { splitDisputedTotal } from '../dispute-amounts.js';

describe('splitDisputedTotal: the disputed total into net and tax, in the order’s proportion', () => {
  it.each([
    // total, order net, order tax → net, tax
    [3000n, 3000n, 0n, 3000n, 0n],
    [1200n, 1000n, 200n, 1000n, 200n],
    [600n, 1000n, 200n, 500n, 100n],
    [1n, 1000n, 200n, 1n, 0n],
    [5n, 1000n, 200n, 4n, 1n], // 0.83 rounds to 1
    [1000n, 0n, 0n, 1000n, 0n], // a free order: all net
  ])('%s of an order of %s + %s tax → %s + %s', (total, netAmount, taxAmount, net, tax) => {
    const split = splitDisputedTotal(total, { netAmount, taxAmount });
    expect(split).toEqual({ amount: net, taxAmount: tax });
    expect(split.amount + split.taxAmount).toBe(total);
  });
});

describe("disputeStatusOf: Stripe's dispute statuses in Polar's", () => {
  it.each([
    ['needs_response', 'needs_response'],
    ['warning_needs_response', 'needs_response'],
    ['under_review', 'under_review'],
    ['warning_under_review', 'under_review'],
    ['won', 'won'],
    ['lost', 'lost'],
    ['warning_closed', 'prevented'],
    ['prevented', 'prevented'],
  ] as const)('%s → %s', (stripe, polar) => {
    expect(disputeStatusOf(stripe)).toBe(polar);
  });
});
