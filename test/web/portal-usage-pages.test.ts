import { ManualClock } from '../../kit/clock.js';
import { type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { times, usageMerchant } from '../support/usage-billing.js';
import { WebClient } from './client.js';

/**
 * The portal's usage (docs/web-pages.md, docs/usage-billing.md#estimated-charges) over plain HTTP: a subscription
 * with a metered price shows its usage this period and the estimated charge; the subscriptions view lists the
 * customer's meters. Names the merchant chose are escaped.
 */
jest.setTimeout(120_000);
const wall = new ManualClock(new Date('2028-01-31T09:30:00.000Z'));
let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
}, 120_000);

const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('usage in the portal', () => {
  it("shows a metered subscription's usage and estimated charge, and the customer's meters, escaped", async () => {
    const m = await usageMerchant(stack);
    const meterId = await m.meterOf('Calls <api> & co');
    const plan = await m.product({
      name: 'Metered <plan>',
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: '2.5' },
      ],
    });
    const sub = await m.subscribe(plan);
    await m.ingest(sub.customer_id, times(1001));
    await m.advance('2028-02-01T00:00:00.000Z');
    const session = await m.req('POST', '/v1/customer-sessions/', { customer_id: sub.customer_id });
    expect(session.status).toBe(201);

    const client = new WebClient(stack.sandbox.baseUrl);
    expect((await client.get(`/portal?customer_session_token=${session.body.token}`)).status).toBe(303);
    const slug = m.owner.slug;
    const list = await client.get(`/portal/${slug}/subscriptions`);
    expect(list.status).toBe(200);
    expect(list.text).toContain('Calls &lt;api&gt; &amp; co');
    expect(list.text).not.toContain('Calls <api>');
    // The customer's meter: 1,001 consumed, nothing credited, a balance of −1,001.
    expect(text(list.text)).toContain(
      'Usage Meter Consumed Credited Balance Calls &lt;api&gt; &amp; co 1,001 0 -1,001',
    );

    const one = await client.get(`/portal/${slug}/subscriptions/${sub.id}`);
    expect(one.status).toBe(200);
    expect(one.text).toContain('Metered &lt;plan&gt;');
    const words = text(one.text);
    // 1,001 × 2.5 cents = 2,502.5, rounded half away from zero: $25.03.
    expect(words).toContain(
      'Usage this period Meter Consumed Credited Estimated charge Calls &lt;api&gt; &amp; co 1,001 0 $25.03',
    );
    expect(words).toContain('Estimated usage charges: $25.03 , billed at the end of the period (Feb 29, 2028).');
  });
});
