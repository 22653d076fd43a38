// Usage-billing scenarios through the public API (test/e2e/usage-billing*.test.ts, docs/usage-billing.md): a
// merchant of its own with a meter, metered products, a subscription bought in the sandbox, events and the clock.
import { call, createTenant, type TestStack } from './stack.js';

/** The filter of every scenario's meter: events named `api.call`. */
export const calls = { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] };

/** A tenant of its own per scenario, on `stack`'s sandbox: its clock starts at the stack's clock. */
export async function usageMerchant(stack: TestStack) {
  const base = stack.sandbox.baseUrl;
  const owner = await createTenant(stack.sandbox);
  const req = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
  const meterOf = async (name: string, aggregation: unknown = { func: 'count' }) => {
    const res = await req('POST', '/v1/meters/', { name, filter: calls, aggregation });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const product = async (body: Record<string, unknown>) => {
    const res = await req('POST', '/v1/products/', { recurring_interval: 'month', name: 'Plan', ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    return res.body.id as string;
  };
  /** A monthly plan at $10.00 plus `unitAmount` per unit of a new meter "Calls". */
  const meteredPlan = async (unitAmount: string, extra: Record<string, unknown> = {}) => {
    const meterId = await meterOf('Calls');
    const plan = await product({
      ...extra,
      prices: [
        { amount_type: 'fixed', price_amount: 1000 },
        { amount_type: 'metered_unit', meter_id: meterId, unit_amount: unitAmount },
      ],
    });
    return { meterId, plan };
  };
  const subscribe = async (productId: string, extra: Record<string, unknown> = {}) => {
    const checkout = await req('POST', '/v1/checkouts/', {
      customer_email: 'buyer@example.com',
      products: [productId],
      ...extra,
    });
    expect(checkout.status).toBe(201);
    const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const list = await req('GET', '/v1/subscriptions/?limit=100');
    const sub = list.body.items.find((x: any) => x.checkout_id === checkout.body.id) as Record<string, any>;
    // The test's wall clock stands still and a sale is stamped 2 ms after its confirm: usage comes a minute later.
    const later = new Date(new Date(sub.started_at).getTime() + 60_000).toISOString();
    expect((await req('POST', '/v1/sandbox/clock/advance', { to: later })).status).toBe(200);
    return sub;
  };
  const ingest = async (customerId: string, events: Record<string, unknown>[]) => {
    for (let i = 0; i < events.length; i += 500) {
      const res = await req('POST', '/v1/events/ingest', {
        events: events.slice(i, i + 500).map(e => ({ name: 'api.call', customer_id: customerId, ...e })),
      });
      expect(res.status).toBe(200);
    }
  };
  const advance = async (to: string) => {
    const res = await req('POST', '/v1/sandbox/clock/advance', { to });
    expect(res.status).toBe(200);
  };
  const cycleOrders = async (subscriptionId: string) => {
    const res = await req('GET', `/v1/orders/?subscription_id=${subscriptionId}&limit=100&sorting=created_at`);
    return (res.body.items as Record<string, any>[]).filter(o => o.billing_reason === 'subscription_cycle');
  };
  return { owner, req, meterOf, product, meteredPlan, subscribe, ingest, advance, cycleOrders };
}
/** An order's lines as [label, amount]. */
export const lines = (order: Record<string, any>) => order.items.map((i: any) => [i.label, i.amount]);
/** `n` events with the same extra fields. */
export const times = (n: number, extra: Record<string, unknown> = {}) =>
  Array.from({ length: n }, () => ({ ...extra }));

export type UsageMerchant = Awaited<ReturnType<typeof usageMerchant>>;
