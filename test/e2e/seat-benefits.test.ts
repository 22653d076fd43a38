import { benefitHelpers } from '../support/benefits.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * A seat-based subscription's benefits go to its seat holders (docs/customer-seats.md#benefits): a
 * claimed seat grants them to its holder (not to the buyer), a revoked seat revokes them, and a
 * subscription that ends revokes its seats and their grants, each through the benefits reconcile job
 * with its `benefit_grant.*` and `customer_seat.revoked` events.
 */
let stack: TestStack;
let owner: Tenant;
let base: string;
let fixtures: BillingFixtures;
let plan: { id: string; priceId: string };
let buyerId: string;
const { api, settle, benefit, state } = benefitHelpers(() => ({ stack, owner, base }));

const sql = (statement: string, values: unknown[]) =>
  stack.sandbox.environment.billing.orm.em.fork().getConnection().execute(statement, values);
const grantEvents = (customerId: string) =>
  sql(
    `select type from billing.events where type like 'benefit_grant.%' and payload->>'customer_id' = ? order by created_at, id`,
    [customerId],
  ).then(rows => rows.map(r => r.type));
const granted = (customerId: string) =>
  settle(
    () => state(customerId),
    res => res.body.granted_benefits?.length === 1,
  );
const revoked = (customerId: string) =>
  settle(
    () => state(customerId),
    res => res.body.granted_benefits?.length === 0,
  );

const seatSubscription = () =>
  fixtures.subscription({
    organizationId: owner.organizationId,
    customerId: buyerId,
    productId: plan.id,
    priceIds: [plan.priceId],
    seats: 3,
  });

async function claimSeat(subscriptionId: string, email: string) {
  const res = await api('POST', '/v1/customer-seats', {
    subscription_id: subscriptionId,
    email,
    immediate_claim: true,
  });
  expect(res.status).toBe(200);
  expect(res.body.status).toBe('claimed');
  return res.body;
}

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
  fixtures = new BillingFixtures(stack.sandbox);
  const on = await api('PATCH', `/v1/organizations/${owner.organizationId}`, {
    feature_settings: { seat_based_pricing_enabled: true },
  });
  expect(on.status).toBe(200);
  const perk = await benefit({ type: 'custom', description: 'Team perk', properties: {} });
  const product = await api('POST', '/v1/products/', {
    name: 'Team plan',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 1500 }],
  });
  expect(product.status).toBe(201);
  plan = { id: product.body.id, priceId: product.body.prices[0].id };
  await api('POST', `/v1/products/${plan.id}/benefits`, { benefits: [perk.id] });
  const buyer = await api('POST', '/v1/customers/', { email: 'buyer@example.com', type: 'team' });
  buyerId = buyer.body.id;
});

describe('seat holders and the benefits of their seats', () => {
  it('grants on claim to the holder, not the buyer, and revokes with the seat', async () => {
    const sub = await seatSubscription();
    const seat = await claimSeat(sub.id, 'holder@example.com');
    const holderState = await granted(seat.customer_id);
    expect(holderState.body.granted_benefits).toHaveLength(1);
    expect((await state(buyerId)).body.granted_benefits).toEqual([]);

    const gone = await api('DELETE', `/v1/customer-seats/${seat.id}`);
    expect(gone.status).toBe(200);
    expect((await revoked(seat.customer_id)).body.granted_benefits).toEqual([]);
    expect(await grantEvents(seat.customer_id)).toEqual(['benefit_grant.created', 'benefit_grant.revoked']);
    expect(await grantEvents(buyerId)).toEqual([]);
  });

  it('revokes every seat and its holder’s grants when the subscription ends', async () => {
    const sub = await seatSubscription();
    const first = await claimSeat(sub.id, 'first@example.com');
    const second = await claimSeat(sub.id, 'second@example.com');
    await granted(first.customer_id);
    await granted(second.customer_id);

    const ended = await api('DELETE', `/v1/subscriptions/${sub.id}`);
    expect(ended.status).toBe(200);
    expect(ended.body.status).toBe('canceled');
    await revoked(first.customer_id);
    await revoked(second.customer_id);
    const seats = await api('GET', `/v1/customer-seats?subscription_id=${sub.id}`);
    expect(seats.body.seats.map((s: any) => s.status)).toEqual(['revoked', 'revoked']);
    const seatEvents = await sql(
      `select payload->>'id' as id from billing.events where type = 'customer_seat.revoked' and payload->>'subscription_id' = ?`,
      [sub.id],
    );
    expect(seatEvents.map(r => r.id).sort()).toEqual([first.id, second.id].sort());
    expect(await grantEvents(first.customer_id)).toEqual(['benefit_grant.created', 'benefit_grant.revoked']);
    expect(await grantEvents(second.customer_id)).toEqual(['benefit_grant.created', 'benefit_grant.revoked']);
  });

  it('revokes a deleted member’s seats and, through the reconcile, its holder’s grants', async () => {
    const sub = await seatSubscription();
    const member = await api('POST', `/v1/customers/${buyerId}/members`, { email: 'leaver@example.com' });
    expect(member.status).toBe(201);
    const seat = await api('POST', '/v1/customer-seats', {
      subscription_id: sub.id,
      member_id: member.body.id,
      immediate_claim: true,
    });
    expect(seat.status).toBe(200);
    expect(seat.body).toMatchObject({ status: 'claimed', member_id: member.body.id, email: 'leaver@example.com' });
    await granted(seat.body.customer_id);

    expect((await api('DELETE', `/v1/customers/${buyerId}/members/${member.body.id}`)).status).toBe(204);
    expect((await revoked(seat.body.customer_id)).body.granted_benefits).toEqual([]);
    const seats = await api('GET', `/v1/customer-seats?subscription_id=${sub.id}`);
    expect(seats.body.seats).toEqual([
      expect.objectContaining({ id: seat.body.id, status: 'revoked', member_id: null, member: null }),
    ]);
    const events = await sql(`select type from billing.events where payload->>'id' = ? order by created_at, id`, [
      seat.body.id,
    ]);
    expect(events.map(r => r.type)).toEqual(['customer_seat.claimed', 'customer_seat.revoked']);
    expect(await grantEvents(seat.body.customer_id)).toEqual(['benefit_grant.created', 'benefit_grant.revoked']);
  });
});
