import {
  changeDirection,
  type Plan,
  type PlanChange,
  previewChange,
  resolveProrationBehavior,
  settle,
} from '../proration.js';

const DAY = 86_400_000;
const april = { start: new Date('2026-04-01T00:00:00Z'), end: new Date('2026-05-01T00:00:00Z') };
const afterOneDay = new Date(april.start.getTime() + DAY);

const monthly = (label: string, amount: bigint, currency = 'usd'): Plan => ({
  currency,
  interval: 'month',
  intervalCount: 1,
  prices: [{ label, type: 'fixed', amount }],
});

const change = (overrides: Partial<PlanChange>): PlanChange => ({
  current: monthly('Basic', 500n),
  next: monthly('Pro', 2000n),
  period: april,
  at: afterOneDay,
  behavior: 'invoice',
  ...overrides,
});

/** The preview with plain numbers and an ISO date, as the wire will show it. */
const wire = (preview: ReturnType<typeof previewChange>) => ({
  ...preview,
  applies_at: preview.applies_at.toISOString(),
  items: preview.items.map(i => ({ ...i, amount: Number(i.amount) })),
  subtotal_amount: Number(preview.subtotal_amount),
  discount_amount: Number(preview.discount_amount),
  net_amount: Number(preview.net_amount),
  tax_amount: Number(preview.tax_amount),
  total_amount: Number(preview.total_amount),
});

describe("Polar's documented case: $5 → $20 after one day of a 30-day month", () => {
  it('invoice: a credit of 483 and a debit of 1933 on an order made now, 1450 net', () => {
    expect(wire(previewChange(change({ behavior: 'invoice' })))).toEqual({
      applies_at: '2026-04-02T00:00:00.000Z',
      currency: 'usd',
      items: [
        { label: 'Unused time on Basic', amount: -483, proration: true },
        { label: 'Remaining time on Pro', amount: 1933, proration: true },
      ],
      subtotal_amount: 1450,
      discount_amount: 0,
      net_amount: 1450,
      tax_amount: 0,
      total_amount: 1450,
    });
  });

  it('prorate: the same lines ride on the next renewal, with the new plan’s next period', () => {
    expect(wire(previewChange(change({ behavior: 'prorate' })))).toEqual({
      applies_at: '2026-04-02T00:00:00.000Z',
      currency: 'usd',
      items: [
        { label: 'Unused time on Basic', amount: -483, proration: true },
        { label: 'Remaining time on Pro', amount: 1933, proration: true },
        { label: 'Pro', amount: 2000, proration: false },
      ],
      subtotal_amount: 3450,
      discount_amount: 0,
      net_amount: 3450,
      tax_amount: 0,
      total_amount: 3450,
    });
  });

  it('next_period: nothing before the period ends, then the new plan in full', () => {
    expect(wire(previewChange(change({ behavior: 'next_period' })))).toEqual({
      applies_at: '2026-05-01T00:00:00.000Z',
      currency: 'usd',
      items: [{ label: 'Pro', amount: 2000, proration: false }],
      subtotal_amount: 2000,
      discount_amount: 0,
      net_amount: 2000,
      tax_amount: 0,
      total_amount: 2000,
    });
  });
});

describe('credits larger than the new charge', () => {
  it('a downgrade billed now has a negative total, which becomes customer balance, not a payout', () => {
    const preview = previewChange(change({ current: monthly('Pro', 2000n), next: monthly('Basic', 500n) }));
    expect(preview.items.map(i => i.amount)).toEqual([-1933n, 483n]);
    expect(preview.total_amount).toBe(-1450n);
    expect(settle(preview.total_amount, 0n)).toEqual({
      applied_balance_amount: 0n,
      due_amount: 0n,
      balance_after: 1450n,
    });
  });

  it.each([
    [
      'the balance covers part of the next order',
      2000n,
      1450n,
      { applied_balance_amount: 1450n, due_amount: 550n, balance_after: 0n },
    ],
    [
      'the balance covers all of it',
      1000n,
      1450n,
      { applied_balance_amount: 1000n, due_amount: 0n, balance_after: 450n },
    ],
    ['no balance', 2000n, 0n, { applied_balance_amount: 0n, due_amount: 2000n, balance_after: 0n }],
    [
      'a free order leaves the balance alone',
      0n,
      300n,
      { applied_balance_amount: 0n, due_amount: 0n, balance_after: 300n },
    ],
  ])('%s', (_name, total, balance, expected) => {
    expect(settle(total, balance)).toEqual(expected);
  });
});

describe('seats', () => {
  const seats = (n: number): Plan => ({
    currency: 'usd',
    interval: 'month',
    intervalCount: 1,
    prices: [{ label: 'Team', type: 'seat', amount: 1000n }],
    seats: n,
  });

  it('3 → 5 seats of $10 after one day of 30: one line, the prorated difference', () => {
    const preview = previewChange(change({ current: seats(3), next: seats(5) }));
    // (5000 − 3000) × 29/30 = 1933.33 → 1933
    expect(preview.items).toEqual([{ label: 'Team (3 → 5 seats)', amount: 1933n, proration: true }]);
    expect(preview.total_amount).toBe(1933n);
  });

  it('fewer seats is a credit; a fixed discount comes off each side, not off the difference', () => {
    const preview = previewChange(
      change({ current: seats(5), next: seats(2), discount: { type: 'fixed', amounts: { usd: 1000n } } }),
    );
    // before 5000 − 1000, after 2000 − 1000: (1000 − 4000) × 29/30 = −2900
    expect(preview.items).toEqual([{ label: 'Team (5 → 2 seats)', amount: -2900n, proration: true }]);
  });

  it('with prorate, the seat line rides on the renewal at the new count', () => {
    const preview = previewChange(change({ behavior: 'prorate', current: seats(3), next: seats(5) }));
    expect(preview.items.map(i => [i.label, i.amount])).toEqual([
      ['Team (3 → 5 seats)', 1933n],
      ['Team (5 × seat)', 5000n],
    ]);
  });

  it('more seats is an upgrade', () => {
    expect(changeDirection(seats(3), seats(5))).toBe('upgrade');
  });
});

describe('discounts', () => {
  it('a discount set by the change comes off the debit only', () => {
    const preview = previewChange(
      change({ discount: null, discountAfterChange: { type: 'fixed', amounts: { usd: 500n } } }),
    );
    // credit 500 × 29/30 = 483; debit (2000 − 500) × 29/30 = 1450
    expect(preview.items.map(i => i.amount)).toEqual([-483n, 1450n]);
  });

  it('a percentage comes off both sides of the proration, line by line', () => {
    const preview = previewChange(change({ discount: { type: 'percentage', basisPoints: 2000 } }));
    // 400 × 29/30 = 386.67 → 387; 1600 × 29/30 = 1546.67 → 1547
    expect(preview.items.map(i => i.amount)).toEqual([-387n, 1547n]);
    expect([preview.discount_amount, preview.total_amount]).toEqual([0n, 1160n]);
  });

  it('on a renewal the discount is shown apart, a fixed one split by largest remainder', () => {
    const plan: Plan = {
      currency: 'usd',
      interval: 'month',
      intervalCount: 1,
      prices: [
        { label: 'Base', type: 'fixed', amount: 1000n },
        { label: 'Support', type: 'fixed', amount: 500n },
      ],
    };
    const preview = previewChange(
      change({ behavior: 'next_period', next: plan, nextPeriodDiscount: { type: 'fixed', amounts: { usd: 301n } } }),
    );
    expect([preview.subtotal_amount, preview.discount_amount, preview.net_amount]).toEqual([1500n, 301n, 1199n]);
  });

  it('a discount that ends with this period does not reach the renewal', () => {
    const preview = previewChange(
      change({
        behavior: 'next_period',
        discount: { type: 'percentage', basisPoints: 5000 },
        nextPeriodDiscount: null,
      }),
    );
    expect(preview.total_amount).toBe(2000n);
  });
});

describe('zero-decimal currencies are not scaled', () => {
  it('¥500 → ¥2,000 after one day of 30: the same integers as cents, no ×100 anywhere', () => {
    const preview = previewChange(
      change({ current: monthly('Basic', 500n, 'JPY'), next: monthly('Pro', 2000n, 'jpy') }),
    );
    expect(preview.currency).toBe('jpy');
    expect(preview.items.map(i => i.amount)).toEqual([-483n, 1933n]);
    expect(preview.total_amount).toBe(1450n);
  });

  it('¥980 → ¥1,980 after 10 days of 30', () => {
    const preview = previewChange(
      change({
        current: monthly('S', 980n, 'jpy'),
        next: monthly('M', 1980n, 'jpy'),
        at: new Date(april.start.getTime() + 10 * DAY),
      }),
    );
    // 980 × 20/30 = 653.33 → 653; 1980 × 20/30 = 1320
    expect(preview.items.map(i => i.amount)).toEqual([-653n, 1320n]);
  });

  it('refuses to mix currencies', () => {
    expect(() => previewChange(change({ next: monthly('Pro', 2000n, 'eur') }))).toThrow();
  });
});

describe('a change of billing interval is billed now, on a new period', () => {
  it('monthly $5 → yearly $100 after one day: credit the unused month, charge the year', () => {
    const yearly: Plan = {
      currency: 'usd',
      interval: 'year',
      intervalCount: 1,
      prices: [{ label: 'Pro yearly', type: 'fixed', amount: 10000n }],
    };
    const preview = previewChange(change({ behavior: 'prorate', next: yearly }));
    expect(preview.applies_at).toEqual(afterOneDay);
    expect(preview.items).toEqual([
      { label: 'Unused time on Basic', amount: -483n, proration: true },
      { label: 'Remaining time on Pro yearly', amount: 10000n, proration: true },
    ]);
    expect(preview.total_amount).toBe(9517n);
  });

  it('the new period is debited with the discount it has after the change', () => {
    const yearly: Plan = {
      currency: 'usd',
      interval: 'year',
      intervalCount: 1,
      prices: [{ label: 'Pro yearly', type: 'fixed', amount: 10000n }],
    };
    const preview = previewChange(
      change({ next: yearly, discount: null, discountAfterChange: { type: 'percentage', basisPoints: 1000 } }),
    );
    expect(preview.items.map(i => i.amount)).toEqual([-483n, 9000n]);
    expect(preview.discount_amount).toBe(0n);
  });
});

describe('direction: by the price per period, normalised across intervals', () => {
  const plan = (interval: Plan['interval'], intervalCount: number, amount: bigint): Plan => ({
    currency: 'usd',
    interval,
    intervalCount,
    prices: [{ label: 'x', type: 'fixed', amount }],
  });

  it.each<[string, Plan, Plan, string]>([
    ['$5 → $20 monthly', plan('month', 1, 500n), plan('month', 1, 2000n), 'upgrade'],
    ['$20 → $5 monthly', plan('month', 1, 2000n), plan('month', 1, 500n), 'downgrade'],
    ['$10 monthly → $100 yearly (cheaper per month)', plan('month', 1, 1000n), plan('year', 1, 10000n), 'downgrade'],
    ['$10 monthly → $130 yearly (dearer per month)', plan('month', 1, 1000n), plan('year', 1, 13000n), 'upgrade'],
    ['$10 monthly → $120 yearly (the same)', plan('month', 1, 1000n), plan('year', 1, 12000n), 'same'],
    ['$7 weekly → $1 daily (the same)', plan('week', 1, 700n), plan('day', 1, 100n), 'same'],
    ['$30 quarterly → $11 monthly', plan('month', 3, 3000n), plan('month', 1, 1100n), 'upgrade'],
  ])('%s', (_name, current, next, expected) => {
    expect(changeDirection(current, next)).toBe(expected);
  });

  it.each([
    ['the request wins', 'next_period', 'upgrade', 'next_period'],
    ['an upgrade follows the organization’s upgrade rule', undefined, 'upgrade', 'invoice'],
    ['a downgrade follows its downgrade rule', undefined, 'downgrade', 'next_period'],
    ['the same price follows the upgrade rule', null, 'same', 'invoice'],
  ] as const)('%s', (_name, requested, direction, expected) => {
    expect(resolveProrationBehavior(requested, { upgrade: 'invoice', downgrade: 'next_period' }, direction)).toBe(
      expected,
    );
  });
});
