import fc from 'fast-check';
import { type BillingCadence, boundariesCrossed, nthPeriodEnd, periodContaining } from '../calendar.js';

/** Invariants of the calendar over random anchors and cadences (fast-check), beside the tables. */
const instant = fc.date({
  min: new Date('1990-01-01T00:00:00Z'),
  max: new Date('2090-01-01T00:00:00Z'),
  noInvalidDate: true,
});
const cadence = fc.record({
  interval: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'year' as const),
  count: fc.integer({ min: 1, max: 12 }),
  anchor: instant,
});

const lastDayOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();

describe('calendar invariants', () => {
  it('boundaries strictly increase', () => {
    fc.assert(
      fc.property(cadence, fc.integer({ min: -50, max: 200 }), (c: BillingCadence, n) => {
        return nthPeriodEnd(c, n + 1).getTime() > nthPeriodEnd(c, n).getTime();
      }),
    );
  });

  it("monthly and yearly boundaries fall on the anchor's day, or the last day of a shorter month, at its time of day", () => {
    fc.assert(
      fc.property(cadence, fc.integer({ min: 0, max: 300 }), (c: BillingCadence, n) => {
        if (c.interval === 'day' || c.interval === 'week') return true;
        const b = nthPeriodEnd(c, n);
        const expectedDay = Math.min(c.anchor.getUTCDate(), lastDayOf(b));
        return (
          b.getUTCDate() === expectedDay &&
          b.getUTCHours() === c.anchor.getUTCHours() &&
          b.getUTCMinutes() === c.anchor.getUTCMinutes() &&
          b.getUTCSeconds() === c.anchor.getUTCSeconds()
        );
      }),
    );
  });

  it('the period containing an instant contains it, and is the n-th period', () => {
    fc.assert(
      fc.property(cadence, instant, (c: BillingCadence, at) => {
        const p = periodContaining(c, at);
        return (
          p.start.getTime() <= at.getTime() &&
          at.getTime() < p.end.getTime() &&
          p.start.getTime() === nthPeriodEnd(c, p.index).getTime() &&
          p.end.getTime() === nthPeriodEnd(c, p.index + 1).getTime()
        );
      }),
    );
  });

  it('crossing (a, b] then (b, c] crosses exactly the boundaries of (a, c], in order', () => {
    fc.assert(
      fc.property(
        fc.record({
          interval: fc.constantFrom('week' as const, 'month' as const, 'year' as const),
          count: fc.integer({ min: 1, max: 3 }),
          anchor: instant,
        }),
        instant,
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        fc.integer({ min: 0, max: 400 * 86_400_000 }),
        (c: BillingCadence, a, d1, d2) => {
          const b = new Date(a.getTime() + d1);
          const end = new Date(b.getTime() + d2);
          const split = [...boundariesCrossed(c, a, b), ...boundariesCrossed(c, b, end)].map(d => d.getTime());
          const whole = boundariesCrossed(c, a, end).map(d => d.getTime());
          return JSON.stringify(split) === JSON.stringify(whole);
        },
      ),
    );
  });
});
