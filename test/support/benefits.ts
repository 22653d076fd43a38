import { call, type Tenant, type TestStack } from './stack.js';
import { until } from './until.js';

/** Where the benefits tests run: the stack, the merchant under test and its sandbox base URL. */
export interface BenefitsWorld {
  stack: TestStack;
  owner: Tenant;
  base: string;
}

/**
 * The calls the benefits tests share (test/e2e/benefits*.test.ts), bound to a world the test file sets
 * up in its beforeAll.
 */
export function benefitHelpers(world: () => BenefitsWorld) {
  const api = (method: string, path: string, body?: unknown, token = world().owner.oat) =>
    call(world().base, method, path, { token, body });

  /**
   * Runs due jobs until `check` passes, for up to 60 s (the worker loop may hold a job a moment; we wait for
   * it). Answers the last value either way: the caller's assertion says what was missing.
   */
  async function settle<T>(check: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    let value = await check();
    if (done(value)) return value;
    await until(
      async () => {
        await world().stack.sandbox.environment.billing.jobs.drain();
        value = await check();
        return done(value);
      },
      60_000,
      100,
    );
    return value;
  }

  const benefit = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/v1/benefits/', body);
    expect(res.status).toBe(201);
    return res.body;
  };
  const product = async (body: Record<string, unknown>) => {
    const res = await api('POST', '/v1/products/', {
      recurring_interval: 'month',
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
      ...body,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  /** A sale with the test card; answers the order once fulfilment has made it. */
  const sell = async (productId: string, email: string, token = world().owner.oat) => {
    const checkout = await api('POST', '/v1/checkouts/', { products: [productId], customer_email: email }, token);
    expect(checkout.status).toBe(201);
    const confirmed = await call(world().base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    });
    expect(confirmed.status).toBe(200);
    const orders = await settle(
      () => api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`, undefined, token),
      res => res.body.items?.length === 1,
    );
    return orders.body.items[0];
  };
  const state = (customerId: string) => api('GET', `/v1/customers/${customerId}/state`);
  /** Outbox rows of these types, oldest first. */
  const outbox = async (types: string[]) => {
    const em = world().stack.sandbox.environment.billing.orm.em.fork();
    return em.execute<{ type: string; payload: Record<string, any> }[]>(
      `select type, payload from billing.events where type in (${types.map(() => '?').join(', ')}) order by created_at, id`,
      types,
    );
  };
  return { api, settle, benefit, product, sell, state, outbox };
}
