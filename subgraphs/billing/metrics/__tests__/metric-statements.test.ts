import { METRIC_CATALOGUE } from '../metric.catalogue.js';
import { metricWindow } from '../metric-window.js';
import { type ComputedFamily, familyStatement } from '../metrics.queries.js';

/**
 * A family's statement leaves out the parts only unrequested metrics need (docs/metrics.md#cost), and its text
 * depends on the set of parts, not on the request's slugs: a few prepared variants per family. That the numbers
 * stay the same is the metrics scenario's proof (test/e2e/metrics-scenario.test.ts).
 */
const window = metricWindow('2028-01-01', '2028-01-31', 'day', 'Europe/Paris');
const filters = { organizationIds: ['7a1c7e0e-2f0e-4a4e-9a57-1c1f0d3c2b11'] };
const statement = (family: ComputedFamily, slugs?: string[]) =>
  familyStatement(family, window, filters, slugs && new Set(slugs));
const slugsOf = (family: ComputedFamily) => METRIC_CATALOGUE.filter(m => m.family === family).map(m => m.slug);

describe('a family statement', () => {
  it('is the whole statement when every metric of its family is asked, or none is named', () => {
    for (const family of ['subscriptions', 'subscription-events', 'orders', 'checkouts', 'seats'] as const)
      expect([family, statement(family, slugsOf(family))]).toEqual([family, statement(family)]);
  });

  it.each([
    ['subscriptions', ['average_revenue_per_user'], ['spans', 'customer_changes', 'partition by customer_id']],
    ['orders', ['cumulative_revenue', 'net_cumulative_revenue'], ['baseline', 'o.created_at < ']],
    ['subscription-events', ['churn_rate'], ['timeline', 'rates']],
  ] as const)('of %s leaves out what only %j need', (family, costly, parts) => {
    const others = slugsOf(family).filter(slug => !(costly as readonly string[]).includes(slug));
    const lean = statement(family, others);
    for (const part of parts) {
      expect([part, lean.text.includes(part)]).toEqual([part, false]);
      expect([part, statement(family).text.includes(part)]).toEqual([part, true]);
    }
    for (const slug of costly) expect(lean.text).not.toContain(` as ${slug}`);
    // Each costly metric alone brings its part back.
    for (const slug of costly) expect(statement(family, [slug, others[0]]).text).toContain(parts[0]);
    // The same parts, the same text and values whichever slugs ask for them (prepared once per variant).
    expect(statement(family, [others[0]])).toEqual(lean);
    expect(statement(family, [...others].reverse().slice(0, 2))).toEqual(lean);
  });
});
