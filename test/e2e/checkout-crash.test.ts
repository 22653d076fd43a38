import { type PreparedServer, prepareServer, seedCrashMerchant } from '../support/crash-server.js';
import { query as queryOn, type ServerSetup, startServer } from '../support/embedded-server.js';
import { call } from '../support/stack.js';

/**
 * docs/reliability.md#exactly-once-where-it-matters: a crash between the charge and the order never loses the payment nor charges
 * twice. The built server is run as a child process with `FAULT_INJECTION_EXIT_AT=checkout.after-charge`,
 * which makes it exit (as a `kill -9` would) once the fulfilment has replayed the charge and before the
 * order commits. Restarted without the fault, its job worker finds the fulfilment left behind (once the
 * dead worker's lease is over) and completes it: one order, one charge, one payment.
 */
jest.setTimeout(240_000);

let prepared: PreparedServer;
let sandboxUrl: string;
let token: string;
let productId: string;

const setup = (): ServerSetup => prepared.setup;
const query = <T>(sql: string, values: unknown[] = []) => queryOn<T>(sandboxUrl, sql, values);

beforeAll(async () => {
  prepared = await prepareServer('crash');
  sandboxUrl = prepared.setup.sandboxUrl;
  // The merchant, its token and a monthly product, made in-process on the sandbox database, then closed.
  ({ token, productId } = await seedCrashMerchant(sandboxUrl, {
    name: 'Crash plan',
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 2500 }],
  }));
});

afterAll(async () => {
  await prepared?.remove();
});

it('a process killed after the charge and before the order commits: after restart one order and one charge', async () => {
  const base = `http://127.0.0.1:${setup().port}`;
  const crashing = startServer(setup(), { FAULT_INJECTION_EXIT_AT: 'checkout.after-charge' });
  await crashing.ready;
  const checkout = await call(base, 'POST', '/v1/checkouts/', {
    token,
    body: { products: [productId], customer_email: 'survivor@example.com' },
  });
  expect(checkout.status).toBe(201);
  // The confirm's answer never comes: the process exits in the fulfilment that runs right after its commit.
  await expect(
    call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
      body: { confirmation_token_id: 'pm_card_visa' },
    }),
  ).rejects.toThrow();
  expect(await crashing.exited).toBe(86);

  // The money moved, the order did not commit, the fulfilment is still to do.
  const charged = `select status, amount::int from billing.test_processor_charges where metadata->>'checkout_id' = $1`;
  expect(await query(charged, [checkout.body.id])).toEqual([{ status: 'succeeded', amount: 2500 }]);
  expect(await query('select id from billing.orders where checkout_id = $1', [checkout.body.id])).toEqual([]);
  expect(await query('select status from billing.checkouts where id = $1', [checkout.body.id])).toEqual([
    { status: 'confirmed' },
  ]);

  const restarted = startServer(setup());
  await restarted.ready;
  let status = 'confirmed';
  const deadline = Date.now() + 120_000;
  while (status !== 'succeeded' && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 500));
    status = (await call(base, 'GET', `/v1/checkouts/${checkout.body.id}`, { token })).body.status;
  }
  expect(status).toBe('succeeded');

  const orders = await call(base, 'GET', `/v1/orders/?checkout_id=${checkout.body.id}`, { token });
  expect(orders.body.items).toHaveLength(1);
  expect(orders.body.items[0]).toMatchObject({
    status: 'paid',
    total_amount: 2500,
    billing_reason: 'subscription_create',
  });
  expect(await query(charged, [checkout.body.id])).toEqual([{ status: 'succeeded', amount: 2500 }]);
  expect(
    await query('select status, order_id from billing.payments where checkout_id = $1', [checkout.body.id]),
  ).toEqual([{ status: 'succeeded', order_id: orders.body.items[0].id }]);
  expect(await query('select status from billing.subscriptions where checkout_id = $1', [checkout.body.id])).toEqual([
    { status: 'active' },
  ]);
  restarted.child.kill('SIGTERM');
  await restarted.exited;
});
