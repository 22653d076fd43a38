import { describe, expect, it, jest } from '@jest/globals';
import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Usage billing through the public API (docs/usage-billing.md): metered prices on products (Polar's shape and
 * 422s), checkouts of such products (nothing charged up front for usage), and the sandbox clock driving renewals
 * whose orders carry one line per metered price.
 */
jest.setTimeout(120_000);
const START = new Date('2028-01-31T09:30:00.000Z');
const wall = new ManualClock(START);
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await startTestStack('usage_billing', wall);
  base = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

function api(method: string, path: string, body?: unknown, token = shop.oat) {
  return call(base, method, path, { token, body });
}
const calls = { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] };
async function meter(name: string, aggregation: unknown = { func: 'count' }, token = shop.oat) {
  const res = await api('POST', '/v1/meters/', { name, filter: calls, aggregation }, token);
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body as Record<string, any>;
}

describe('metered prices', () => {
  it("creates a recurring product with a fixed and a metered price, answered in Polar's shape", async () => {
    const m = await meter('Calls');
    const res = await api('POST', '/v1/products/', {
      name: 'API plan',
      recurring_interval: 'month',
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: m.id, unit_amount: '0.5', cap_amount: 300 },
      ],
    });
    expect(res.status).toBe(201);
    const metered = res.body.prices[1];
    expect(metered).toEqual({
      created_at: expect.any(String),
      modified_at: null,
      id: expect.any(String),
      source: 'catalog',
      amount_type: 'metered_unit',
      price_currency: 'usd',
      tax_behavior: null,
      is_archived: false,
      product_id: res.body.id,
      type: 'recurring',
      recurring_interval: 'month',
      cap_amount: 300,
      meter_id: m.id,
      meter: { id: m.id, name: 'Calls', unit: 'scalar', custom_label: null, custom_multiplier: null },
      unit_amount: '0.500000000000',
    });
    const read = await api('GET', `/v1/products/${res.body.id}`);
    expect(read.body.prices).toEqual(res.body.prices);
    // A meter a live price bills cannot be archived.
    const archive = await api('PATCH', `/v1/meters/${m.id}`, { is_archived: true });
    expect(archive.status).toBe(422);
    expect(archive.body.detail[0].loc).toEqual(['body', 'is_archived']);
  });

  it("refuses bad metered prices with Polar's 422 at the price's field, and creates nothing", async () => {
    const m = await meter('Calls two');
    const foreign = await meter('Theirs', { func: 'count' }, other.oat);
    const attempt = async (price: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
      const res = await api('POST', '/v1/products/', {
        name: 'Bad plan',
        recurring_interval: 'month',
        prices: [{ amount_type: 'fixed', price_amount: 1000 }, price],
        ...extra,
      });
      expect(res.status).toBe(422);
      return res.body.detail.map((d: any) => [d.loc, d.type ?? null]);
    };
    const metered = { amount_type: 'metered_unit', meter_id: m.id };
    expect(await attempt({ ...metered, unit_amount: '0' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'greater_than'],
    ]);
    expect(await attempt({ ...metered, unit_amount: '0.0000000000001' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'decimal_max_places'],
    ]);
    expect(await attempt({ ...metered, unit_amount: 'abc' })).toEqual([
      [['body', 'prices', 1, 'unit_amount'], 'decimal_parsing'],
    ]);
    expect(await attempt({ ...metered, unit_amount: '1', cap_amount: -1 })).toEqual([
      [['body', 'prices', 1, 'cap_amount'], 'greater_than_equal'],
    ]);
    const unknown = await attempt({ ...metered, meter_id: foreign.id, unit_amount: '1' });
    expect(unknown).toEqual([[['body', 'prices', 1, 'meter_id'], 'value_error']]);
    const twice = await api('POST', '/v1/products/', {
      name: 'Twice',
      recurring_interval: 'month',
      prices: [
        { ...metered, unit_amount: '1' },
        { ...metered, unit_amount: '2' },
      ],
    });
    expect([twice.status, twice.body.detail?.[0]?.loc]).toEqual([422, ['body', 'prices', 1, 'meter_id']]);
    const oneTime = await api('POST', '/v1/products/', {
      name: 'One time',
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { ...metered, unit_amount: '1' },
      ],
    });
    expect([oneTime.status, oneTime.body.detail?.[0]?.loc]).toEqual([422, ['body', 'prices', 1]]);
    const list = await api('GET', '/v1/products/?limit=100');
    expect(list.body.items.map((p: any) => p.name)).not.toContain('Bad plan');
  });

  it('a checkout of a metered product charges the static price only, and the subscription carries both', async () => {
    const m = await meter('Calls three');
    const product = await api('POST', '/v1/products/', {
      name: 'Checkout plan',
      recurring_interval: 'month',
      prices: [
        { amount_type: 'metered_unit', meter_id: m.id, unit_amount: '2' },
        { amount_type: 'fixed', price_amount: 900 },
      ],
    });
    const checkout = await api('POST', '/v1/checkouts/', {
      customer_email: 'buyer@example.com',
      products: [product.body.id],
    });
    expect(checkout.status).toBe(201);
    expect(checkout.body).toMatchObject({ amount: 900, total_amount: 900 });
    expect(checkout.body.product_price.amount_type).toBe('fixed');
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const subs = await api('GET', '/v1/subscriptions/?limit=100');
    const sub = subs.body.items.find((s: any) => s.checkout_id === checkout.body.id);
    expect(sub.amount).toBe(900);
    expect(sub.prices.map((p: any) => p.amount_type)).toEqual(['fixed', 'metered_unit']);
  });
});
