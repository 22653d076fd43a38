import { createPolar } from '@polar-sh/sdk-1/2026-10';
import {
  advance,
  api,
  balanceOf,
  base,
  customerWithCard,
  env,
  ONE_DAY,
  plan,
  type Plan,
  subscribe,
  tenant,
  usePlanChangesStack,
} from './support/plan-changes.js';
import { call, createTenant } from '../support/stack.js';

/**
 * The portal's wallets (docs/wallets.md) over real HTTP and SDK 1.0.1: a downgrade whose credit is
 * larger than its charge leaves balance, which the customer's wallet shows; another customer, another
 * organization's customer and a merchant token see none of it; bad input is 422 at its `loc`.
 */
usePlanChangesStack();

let basic: Plan;
let premium: Plan;

beforeAll(async () => {
  basic = await plan('Basic', 500);
  premium = await plan('Premium', 2000);
});

const sessionOf = async (customerId: string, token = tenant.oat) => {
  const res = await call(base, 'POST', '/v1/customer-sessions/', { token, body: { customer_id: customerId } });
  expect(res.status).toBe(201);
  return res.body.token as string;
};

describe('/v1/customer-portal/wallets', () => {
  it('shows the balance a downgrade left as the customer wallet in its currency, and follows the ledger', async () => {
    const customer = await customerWithCard();
    const token = await sessionOf(customer.id);
    const before = await call(base, 'GET', '/v1/customer-portal/wallets/', { token });
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ items: [], pagination: { total_count: 0, max_page: 0 } });

    const s = await subscribe(customer, premium);
    await advance(ONE_DAY);
    const down = await api('PATCH', `/v1/subscriptions/${s.id}`, {
      product_id: basic.product.id,
      proration_behavior: 'invoice',
    });
    expect(down.status).toBe(200);
    expect(await balanceOf(customer.id)).toBe(1450);

    const polar = createPolar({ accessToken: token, baseUrl: base });
    const list = await polar.customerPortal.wallets.list({});
    expect(list.pagination).toEqual({ total_count: 1, max_page: 1 });
    const [wallet] = list.items;
    expect(wallet).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      modified_at: null,
      customer_id: customer.id,
      balance: 1450,
      currency: 'usd',
    });
    expect(await polar.customerPortal.wallets.get(wallet.id)).toEqual(wallet);

    // Back up the same day: the balance pays the upgrade; the wallet is the ledger, so it shows 0 and moved.
    const up = await api('PATCH', `/v1/subscriptions/${s.id}`, {
      product_id: premium.product.id,
      proration_behavior: 'invoice',
    });
    expect(up.status).toBe(200);
    const after = await call(base, 'GET', `/v1/customer-portal/wallets/${wallet.id}`, { token });
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: wallet.id, balance: 0, currency: 'usd', modified_at: expect.any(String) });
  });

  it("answers 404 for another customer's wallet and another organization's, 401 to a merchant token", async () => {
    const owner = await customerWithCard();
    const s = await subscribe(owner, premium);
    await advance(ONE_DAY);
    expect(
      (await api('PATCH', `/v1/subscriptions/${s.id}`, { product_id: basic.product.id, proration_behavior: 'invoice' }))
        .status,
    ).toBe(200);
    const ownerToken = await sessionOf(owner.id);
    const [wallet] = (await call(base, 'GET', '/v1/customer-portal/wallets/', { token: ownerToken })).body.items;

    const neighbour = await customerWithCard();
    const neighbourToken = await sessionOf(neighbour.id);
    const theirs = await call(base, 'GET', `/v1/customer-portal/wallets/${wallet.id}`, { token: neighbourToken });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error).toBe('ResourceNotFound');
    expect((await call(base, 'GET', '/v1/customer-portal/wallets/', { token: neighbourToken })).body.items).toEqual([]);

    const other = await createTenant(env);
    const stranger = await call(base, 'POST', '/v1/customers/', { token: other.oat, body: { email: 'w@example.com' } });
    const strangerToken = await sessionOf(stranger.body.id, other.oat);
    const foreign = await call(base, 'GET', `/v1/customer-portal/wallets/${wallet.id}`, { token: strangerToken });
    expect(foreign.status).toBe(404);

    const merchant = await call(base, 'GET', '/v1/customer-portal/wallets/', { token: tenant.oat });
    expect(merchant.status).toBe(401);
  });

  it('answers bad input with 422 at its loc', async () => {
    const customer = await customerWithCard();
    const token = await sessionOf(customer.id);
    const badId = await call(base, 'GET', '/v1/customer-portal/wallets/not-a-uuid', { token });
    expect(badId.status).toBe(422);
    expect(badId.body.detail[0].loc).toEqual(['path', 'id']);
    const badSort = await call(base, 'GET', '/v1/customer-portal/wallets/?sorting=amount', { token });
    expect(badSort.status).toBe(422);
    expect(badSort.body.detail[0].loc).toEqual(['query', 'sorting', 0]);
  });
});
