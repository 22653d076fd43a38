import { defaultPaymentMethodFor } from '../../subgraphs/billing/payments/saved-payment-methods.js';
import { polarClient, ok } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The Customer Portal's saved payment methods over HTTP and through the SDK, in the sandbox (test
 * processor): list newest first with the default flagged, add (Stripe's test names; a decline is 400
 * PaymentMethodSetupFailed, an unknown name 422 at the field), set the default (what the next renewal
 * charges: defaultPaymentMethodFor), delete (the default moves on; the last one a subscription still
 * needs is refused).
 */
let stack: TestStack;
let owner: Tenant;
let base: string;

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
const portal = (token: string, method: string, path = '', body?: unknown) =>
  call(base, method, `/v1/customer-portal/customers/me/payment-methods${path}`, { token, body });
const add = (token: string, name: string, setDefault = false) =>
  portal(token, 'POST', '', {
    confirmation_token_id: name,
    set_default: setDefault,
    return_url: 'https://shop.example/back',
  });

/** A customer who bought a monthly plan with a Visa: its session token and its id. */
async function subscriber(email: string): Promise<{ token: string; customerId: string }> {
  const product = await api('POST', '/v1/products/', {
    name: `Plan ${email}`,
    recurring_interval: 'month',
    prices: [{ amount_type: 'fixed', price_amount: 900 }],
  });
  const checkout = await api('POST', '/v1/checkouts/', { products: [product.body.id], customer_email: email });
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  return { token: confirmed.body.customer_session_token, customerId: confirmed.body.customer_id };
}

/** A customer with no subscription and a session. */
async function browser(email: string): Promise<{ token: string; customerId: string }> {
  const customer = await api('POST', '/v1/customers/', { email });
  const session = await api('POST', '/v1/customer-sessions/', { customer_id: customer.body.id });
  return { token: session.body.token, customerId: customer.body.id };
}

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  base = stack.sandbox.baseUrl;
}, 120_000);

describe('saved payment methods', () => {
  it('lists the card a checkout saved as the default, then adds, switches the default and renewals follow it', async () => {
    const { token, customerId } = await subscriber('cards@example.com');
    const first = await portal(token, 'GET');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      items: [
        {
          id: expect.any(String),
          created_at: expect.any(String),
          modified_at: null,
          processor: 'stripe',
          customer_id: customerId,
          type: 'card',
          method_metadata: {
            brand: 'visa',
            last4: '4242',
            exp_month: expect.any(Number),
            exp_year: expect.any(Number),
            wallet: null,
          },
          is_default: true,
        },
      ],
      pagination: { total_count: 1, max_page: 1 },
    });
    const visa = first.body.items[0].id;
    expect(
      (await call(base, 'GET', '/v1/customer-portal/customers/me', { token })).body.default_payment_method_id,
    ).toBe(visa);

    const mastercard = await add(token, 'pm_card_mastercard');
    expect(mastercard.status).toBe(201);
    expect(mastercard.body).toEqual({
      status: 'succeeded',
      payment_method: expect.objectContaining({
        type: 'card',
        is_default: false,
        method_metadata: expect.objectContaining({ brand: 'mastercard', last4: '4444' }),
      }),
    });
    const amex = await add(token, 'pm_card_amex', true);
    expect(amex.body.payment_method).toMatchObject({ is_default: true, method_metadata: { brand: 'amex' } });

    const listed = await portal(token, 'GET');
    expect(listed.body.items.map((m: any) => [m.method_metadata.brand, m.is_default])).toEqual([
      ['amex', true],
      ['mastercard', false],
      ['visa', false],
    ]);
    const paged = await portal(token, 'GET', '?limit=2&page=2');
    expect(paged.body).toMatchObject({ items: [{ id: visa }], pagination: { total_count: 3, max_page: 2 } });

    const em = stack.sandbox.environment.billing.orm.em.fork();
    const renewal = await defaultPaymentMethodFor(em, customerId);
    expect(renewal).toMatchObject({ id: amex.body.payment_method.id, brand: 'amex', last4: '8431' });
    const events = await em
      .getConnection()
      .execute<{ n: number }[]>(
        `select count(*)::int as n from billing.events where type = 'customer.updated' and payload->>'id' = ? and payload->>'default_payment_method_id' = ?`,
        [customerId, amex.body.payment_method.id],
      );
    expect(events[0].n).toBe(1);
  });

  it('refuses a declined card with PaymentMethodSetupFailed and saves nothing; an unknown name is 422 at its field', async () => {
    const { token } = await browser('declined@example.com');
    const declined = await add(token, 'pm_card_chargeDeclined');
    expect(declined.status).toBe(400);
    expect(declined.body).toEqual({
      error: 'PaymentMethodSetupFailed',
      detail: 'Could not add this payment method: Your card was declined. Please try again with a different card.',
    });
    const funds = await add(token, 'pm_card_chargeDeclinedInsufficientFunds');
    expect(funds.status).toBe(400);
    const unknown = await add(token, 'pm_card_nonsense');
    expect(unknown.status).toBe(422);
    expect(unknown.body.detail[0]).toMatchObject({ loc: ['body', 'confirmation_token_id'], input: 'pm_card_nonsense' });
    const missing = await portal(token, 'POST', '', { confirmation_token_id: 'pm_card_visa' });
    expect(missing.status).toBe(422);
    expect(missing.body.detail.map((d: any) => d.loc)).toEqual([
      ['body', 'set_default'],
      ['body', 'return_url'],
    ]);
    expect((await portal(token, 'GET')).body.items).toEqual([]);
    // Saves fine; only charges on it are declined later (renewals go to dunning).
    const failLater = await add(token, 'pm_card_chargeCustomerFail');
    expect(failLater.status).toBe(201);
    expect(failLater.body.payment_method.is_default).toBe(true);
  });

  it('moves the default on when it is deleted, and refuses to delete the last method a subscription needs', async () => {
    const { token, customerId } = await subscriber('deleting@example.com');
    const visa = (await portal(token, 'GET')).body.items[0].id;
    const mastercard = (await add(token, 'pm_card_mastercard')).body.payment_method.id;
    const gone = await portal(token, 'DELETE', `/${visa}`);
    expect(gone.status).toBe(204);
    expect(gone.text).toBe('');
    expect((await portal(token, 'GET')).body.items).toEqual([
      expect.objectContaining({ id: mastercard, is_default: true }),
    ]);
    const em = stack.sandbox.environment.billing.orm.em.fork();
    expect((await defaultPaymentMethodFor(em, customerId))?.id).toBe(mastercard);

    expect((await portal(token, 'DELETE', `/${visa}`)).status).toBe(404);
    const last = await portal(token, 'DELETE', `/${mastercard}`);
    expect(last.status).toBe(400);
    expect(last.body).toEqual({
      error: 'PaymentMethodInUseByActiveSubscription',
      detail:
        'This payment method is still needed to bill a subscription. Add another one or cancel the subscription first.',
    });
    expect((await portal(token, 'GET')).body.items).toHaveLength(1);
  });

  it("lets a customer without subscriptions delete its last method, and never touches another customer's", async () => {
    const mine = await browser('mine@example.com');
    const theirs = await browser('theirs@example.com');
    const card = (await add(mine.token, 'pm_card_visa')).body.payment_method.id;
    expect((await portal(theirs.token, 'DELETE', `/${card}`)).status).toBe(404);
    expect((await portal(theirs.token, 'GET')).body.items).toEqual([]);
    expect((await portal(mine.token, 'DELETE', `/${card}`)).status).toBe(204);
    expect(
      (await call(base, 'GET', '/v1/customer-portal/customers/me', { token: mine.token })).body
        .default_payment_method_id,
    ).toBeNull();
    expect((await portal(mine.token, 'DELETE', '/not-a-uuid')).status).toBe(422);
  });

  it('answers only customer sessions', async () => {
    const res = await portal(owner.oat, 'GET');
    expect(res.status).toBe(401);
    expect((await call(base, 'GET', '/v1/customer-portal/customers/me/payment-methods')).status).toBe(401);
  });

  it('works through the SDK (customerPortal.customers.*PaymentMethod*)', async () => {
    const { token } = await browser('sdk-cards@example.com');
    const sdk = polarClient(stack.sandbox);
    const security = { customerSession: token };
    const added = await ok(
      sdk.customerPortal.customers.addPaymentMethod(security, {
        confirmationTokenId: 'pm_card_visa',
        setDefault: true,
        returnUrl: 'https://shop.example/back',
      }),
    );
    // The SDK parses the union's first variant (PaymentMethodCard), which has no `isDefault`.
    expect(added).toMatchObject({ status: 'succeeded', paymentMethod: { type: 'card' } });
    const page = await ok(sdk.customerPortal.customers.listPaymentMethods(security, {}));
    expect(page.result.items).toHaveLength(1);
    expect(page.result.items[0]).toMatchObject({ methodMetadata: { brand: 'visa', last4: '4242' } });
    const id = page.result.items[0].id;
    await ok(sdk.customerPortal.customers.deletePaymentMethod(security, { id }));
    expect((await ok(sdk.customerPortal.customers.listPaymentMethods(security, {}))).result.items).toEqual([]);
  });
});
