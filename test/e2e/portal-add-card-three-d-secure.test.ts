import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The portal's "add payment method" with a card that asks for 3-D Secure, through the REST API in the
 * sandbox (docs/payments.md): the add answers 201 `requires_action` with the setup's client secret;
 * Polar's `POST /v1/customer-portal/customers/me/payment-methods/confirm` answers `requires_action` until
 * the customer completes the challenge (the service the sandbox's bank page uses), then keeps the card,
 * the default when asked. Another customer's setup is 422 at `setup_intent_id`; a customer who never
 * started one is 403 `CustomerNotReady`; a failed challenge is 422 and keeps nothing.
 */
jest.setTimeout(120_000);
let stack: TestStack;
let base: string;
let owner: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox);
}, 120_000);

const challenges = () => stack.sandbox.environment.billing.services.paymentChallenges!;

/** A new customer's portal: `(method, path, body)` with their customer session token. */
async function portalOf(email: string) {
  const customer = await call(base, 'POST', '/v1/customers/', { token: owner.oat, body: { email } });
  expect(customer.status).toBe(201);
  const session = await call(base, 'POST', '/v1/customer-sessions/', {
    token: owner.oat,
    body: { customer_id: customer.body.id },
  });
  expect(session.status).toBe(201);
  return (method: string, path: string, body?: unknown) =>
    call(base, method, path, { token: session.body.token, body });
}

const ME = '/v1/customer-portal/customers/me/payment-methods';

/** Adds `card` and expects the setup to wait for 3-D Secure; its setup id and client secret. */
async function addWaiting(portal: Awaited<ReturnType<typeof portalOf>>, card: string) {
  const added = await portal('POST', ME, {
    confirmation_token_id: card,
    set_default: true,
    return_url: 'https://merchant.example/back',
  });
  expect([added.status, added.body.status]).toEqual([201, 'requires_action']);
  const secret = added.body.client_secret as string;
  return { secret, setupId: secret.slice(0, secret.indexOf('_secret_')) };
}

describe('adding a card that asks for 3-D Secure in the portal', () => {
  it('is kept by the confirm once the customer authenticated, as the default', async () => {
    const portal = await portalOf('threeds.saver@example.com');
    const { secret, setupId } = await addWaiting(portal, '4000 0027 6000 3184');
    expect(setupId).toMatch(/^seti_/);
    expect((await portal('GET', ME)).body.items).toEqual([]);

    // Not authenticated yet: the same answer again.
    const early = await portal('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: true });
    expect([early.status, early.body]).toEqual([201, { status: 'requires_action', client_secret: secret }]);

    expect((await challenges().settle(secret, true)).status).toBe('succeeded');
    const confirmed = await portal('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: true });
    expect(confirmed.status).toBe(201);
    expect(confirmed.body).toMatchObject({
      status: 'succeeded',
      payment_method: {
        type: 'card',
        is_default: true,
        method_metadata: expect.objectContaining({ brand: 'visa', last4: '3184' }),
      },
    });
    // Confirming twice keeps one card.
    const again = await portal('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: true });
    expect(again.body.payment_method.id).toBe(confirmed.body.payment_method.id);
    const list = await portal('GET', ME);
    expect(list.body.items).toEqual([
      expect.objectContaining({ id: confirmed.body.payment_method.id, is_default: true }),
    ]);
  });

  it("another customer's setup is 422 at setup_intent_id; a customer who never started one is 403", async () => {
    const first = await portalOf('first.customer@example.com');
    const { setupId } = await addWaiting(first, 'pm_card_threeDSecure2Required');
    const stranger = await portalOf('stranger@example.com');
    const refused = await stranger('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: false });
    expect([refused.status, refused.body.error]).toEqual([403, 'CustomerNotReady']);

    // A customer with a card of their own is known to the processor: the foreign setup is invalid.
    await stranger('POST', ME, {
      confirmation_token_id: 'pm_card_visa',
      set_default: true,
      return_url: 'https://m.example',
    });
    const invalid = await stranger('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: false });
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'setup_intent_id'], msg: 'Invalid setup_intent_id.' }),
    ]);
    const unknown = await stranger('POST', `${ME}/confirm`, { setup_intent_id: 'seti_nothing', set_default: false });
    expect(unknown.status).toBe(422);
  });

  it('a failed authentication keeps nothing: the confirm is 422', async () => {
    const portal = await portalOf('threeds.failer@example.com');
    const { secret, setupId } = await addWaiting(portal, 'pm_card_authenticationRequired');
    expect((await challenges().settle(secret, false)).status).toBe('failed');
    const refused = await portal('POST', `${ME}/confirm`, { setup_intent_id: setupId, set_default: true });
    expect(refused.status).toBe(422);
    expect((await portal('GET', ME)).body.items).toEqual([]);
  });
});
