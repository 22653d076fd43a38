import {
  advance,
  api,
  asPreview,
  base,
  customerWithCard,
  ONE_DAY,
  ordersOf,
  plan,
  type Plan,
  subscribe,
  tenant,
  usePlanChangesStack,
} from '../e2e/support/plan-changes.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * The portal's plan and seat changes over plain HTTP, in the sandbox (its clock puts us one day into a
 * 30-day period): choose, review the preview on its own page (lines, total, when it applies), confirm
 * with CSRF; the order the confirmation creates is the preview, to the cent.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;
let team: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
  team = await plan('Team', 1000, { perSeat: true });
  const res = await api(
    'PATCH',
    `/v1/organizations/${tenant.organizationId}`,
    {
      subscription_settings: {
        allow_multiple_subscriptions: false,
        proration_behavior: 'prorate',
        proration_behavior_upgrade: 'invoice',
        proration_behavior_downgrade: 'next_period',
        benefit_revocation_grace_period: 0,
        prevent_trial_abuse: false,
        allow_customer_updates: true,
      },
    },
    tenant.pat,
  );
  expect(res.status).toBe(200);
});

async function portalOf(customerId: string, body: Record<string, unknown> = {}) {
  const session = await api('POST', '/v1/customer-sessions/', { customer_id: customerId, ...body });
  expect(session.status).toBe(201);
  const client = new WebClient(base);
  const slug = (await api('GET', `/v1/organizations/${tenant.organizationId}`, undefined, tenant.pat)).body.slug;
  return { client, token: session.body.token as string, root: `/portal/${slug}` };
}

const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('plan changes in the portal pages', () => {
  it('an upgrade: choose, review the charge (-$4.83 + $19.33 = $14.50, now), confirm; the order is the preview', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    await advance(ONE_DAY);
    const { client, token, root } = await portalOf(customer.id);
    const opened = await client.get(`${root}/subscriptions/${s.id}?customer_session_token=${token}`);
    expect(opened.status).toBe(303);

    const subscription = await client.get(`${root}/subscriptions/${s.id}`);
    expect(subscription.text).toContain(`href="${root}/subscriptions/${s.id}/change-plan"`);
    const choose = await client.get(`${root}/subscriptions/${s.id}/change-plan`);
    expect(choose.status).toBe(200);
    expect(choose.text).toContain(`action="${root}/subscriptions/${s.id}/change-plan/review"`);
    expect(choose.text).toContain(`value="${premium.product.id}"`);
    // Each plan with its price and the period it pays for.
    expect(text(choose.text)).toContain('Premium $20.00 / month');
    expect(text(choose.text)).toContain('Team $10.00 per seat / month');

    const review = await client.get(
      `${root}/subscriptions/${s.id}/change-plan/review?product_id=${premium.product.id}`,
    );
    expect(review.status).toBe(200);
    const words = text(review.text);
    expect(words).toContain('Review the change');
    expect(words).toContain('Change to Premium');
    expect(words).toContain('Unused time on Basic -$4.83');
    expect(words).toContain('Remaining time on Premium $19.33');
    expect(words).toContain('Total $14.50');
    expect(words).toContain('The change applies now; $14.50 is charged now to your saved payment method.');
    // Reviewing changed nothing; the page shows the API's preview of the body the confirmation sends.
    expect(await ordersOf(s.id)).toEqual([]);
    const quoted = await api(
      'POST',
      `/v1/customer-portal/subscriptions/${s.id}/update-preview`,
      { product_id: premium.product.id },
      token,
    );
    expect(quoted.status).toBe(200);

    // The confirmation needs the page's CSRF token.
    const forged = await client.post(`${root}/subscriptions/${s.id}/change-plan`, {
      product_id: premium.product.id,
      confirm: '1',
    });
    expect(forged.status).toBe(403);
    expect(await ordersOf(s.id)).toEqual([]);

    const confirmed = await client.post(`${root}/subscriptions/${s.id}/change-plan`, {
      product_id: premium.product.id,
      confirm: '1',
      csrf_token: csrfTokenOf(review.text),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`${root}/subscriptions/${s.id}?done=changed`);
    expect(text((await client.get(confirmed.location!)).text)).toContain('Your plan was changed.');
    const [order] = await ordersOf(s.id);
    const { applies_at: _at, ...previewed } = quoted.body;
    expect(asPreview(order)).toEqual(previewed);
    expect(order.total_amount).toBe(1450);
  });

  it('a downgrade applies at the period end; seats: 2 → 5 is $29.00 now, confirmed to 5 seats', async () => {
    const customer = await customerWithCard();
    const down = await subscribe(customer, premium);
    const seated = await subscribe(customer, team, { seats: 2 });
    await advance(ONE_DAY);
    const { client, token, root } = await portalOf(customer.id);
    await client.get(`${root}/subscriptions?customer_session_token=${token}`);

    const later = text(
      (await client.get(`${root}/subscriptions/${down.id}/change-plan/review?product_id=${basic.product.id}`)).text,
    );
    expect(later).toContain('Basic $5.00');
    expect(later).toMatch(
      /The change applies at the end of the current period, on \w{3} \d{1,2}, \d{4}; \$5\.00 is billed then\./,
    );

    const page = await client.get(`${root}/subscriptions/${seated.id}`);
    expect(page.text).toContain(`href="${root}/subscriptions/${seated.id}/seats"`);
    const bad = await client.get(`${root}/subscriptions/${seated.id}/seats/review?seats=zero`);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('Enter a whole number of seats');
    const review = await client.get(`${root}/subscriptions/${seated.id}/seats/review?seats=5`);
    expect(review.status).toBe(200);
    const words = text(review.text);
    expect(words).toContain('Team (2 → 5 seats) $29.00');
    expect(words).toContain('Total $29.00');
    const confirmed = await client.post(`${root}/subscriptions/${seated.id}/seats`, {
      seats: '5',
      confirm: '1',
      csrf_token: csrfTokenOf(review.text),
    });
    expect(confirmed.status).toBe(303);
    expect((await api('GET', `/v1/subscriptions/${seated.id}`)).body.seats).toBe(5);
    const [order] = await ordersOf(seated.id);
    expect(order.total_amount).toBe(2900);
  });

  it('a deep link keeps the return URL; a change the seller turns off while the review is open is refused (403), nothing changes', async () => {
    const customer = await customerWithCard();
    const s = await subscribe(customer, basic);
    const { client, token, root } = await portalOf(customer.id, { return_url: 'https://shop.example/account' });
    const deep = await client.get(`${root}/subscriptions/${s.id}/change-plan?customer_session_token=${token}`);
    expect(deep.status).toBe(303);
    expect(deep.location).toBe(`${root}/subscriptions/${s.id}/change-plan`);
    const choose = await client.get(deep.location!);
    expect(choose.status).toBe(200);
    expect(choose.text).toContain('href="https://shop.example/account"');

    const setPlans = (update_plan: boolean) =>
      api(
        'PATCH',
        `/v1/organizations/${tenant.organizationId}`,
        { customer_portal_settings: { usage: { show: true }, subscription: { update_seats: true, update_plan } } },
        tenant.pat,
      );
    const review = await client.get(
      `${root}/subscriptions/${s.id}/change-plan/review?product_id=${premium.product.id}`,
    );
    expect(review.status).toBe(200);
    // The seller turns plan changes off while the review is open: the confirmation is refused by the API.
    expect((await setPlans(false)).status).toBe(200);
    try {
      const refused = await client.post(`${root}/subscriptions/${s.id}/change-plan`, {
        product_id: premium.product.id,
        confirm: '1',
        csrf_token: csrfTokenOf(review.text),
      });
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain('>Change plan</a>');
      // And the review page itself now shows the subscription (no change offered).
      const again = await client.get(
        `${root}/subscriptions/${s.id}/change-plan/review?product_id=${premium.product.id}`,
      );
      expect(again.text).not.toContain('Review the change');
      expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.product_id).toBe(basic.product.id);
    } finally {
      await setPlans(true);
    }
  });
});
