import { randomUUID } from 'node:crypto';
import { call, createTenant, type RunningEnvironment, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * The portal's card pages over plain HTTP (rest-adapter/web/portal/portal-card-routes.ts): in the
 * sandbox a test method name saves a card (a declined one is shown in the error box, a post without
 * the form's token is refused); an unknown order has no pay page; production without a processor says
 * the seller cannot take payments and offers no button. The Stripe.js side is in
 * test/browser/stripe-checkout.browser.test.ts.
 */
let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
});

/** A signed-in portal client for a new customer of a new seller, and the seller's slug and token. */
async function portalOf(env: RunningEnvironment) {
  const shop = await createTenant(env);
  const email = `card-${randomUUID()}@example.com`;
  const customer = await new BillingFixtures(env).customer(shop.organizationId, { email });
  const session = await call(env.baseUrl, 'POST', '/v1/customer-sessions/', {
    token: shop.oat,
    body: { customer_id: customer.id },
  });
  const client = new WebClient(env.baseUrl);
  expect((await client.get(`/portal?customer_session_token=${session.body.token}`)).status).toBe(303);
  return { client, base: `/portal/${shop.slug}`, shop, customer };
}

describe('the portal card pages', () => {
  it('saves a sandbox test card as the default, after showing a declined one in the error box', async () => {
    const { client, base } = await portalOf(stack.sandbox);
    const methods = await client.get(`${base}/payment-methods`);
    expect(methods.text).toContain(`href="${base}/payment-methods/new">Add a payment method</a>`);
    const form = await client.get(`${base}/payment-methods/new`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('Card (test payment method)');
    expect(form.text).not.toContain('<script');
    expect(form.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src/);

    const forged = await client.post(`${base}/payment-methods/new`, { confirmation_token_id: 'pm_card_visa' });
    expect(forged.status).toBe(403);
    const csrf = csrfTokenOf(form.text);
    const declined = await client.post(`${base}/payment-methods/new`, {
      csrf_token: csrf,
      confirmation_token_id: 'pm_card_chargeDeclined',
    });
    expect(declined.status).toBe(400);
    expect(declined.text).toContain(
      '<div class="error" role="alert">Could not add this payment method: Your card was declined.',
    );

    const saved = await client.post(`${base}/payment-methods/new`, {
      csrf_token: csrf,
      confirmation_token_id: 'pm_card_visa',
    });
    expect([saved.status, saved.location]).toEqual([303, `${base}/payment-methods?done=card`]);
    const after = await client.get(saved.location as string);
    expect(after.text).toContain('Your card was saved; renewals are charged to it.');
    expect(after.text).toContain('visa ending in 4242');
  });

  it('sends a card that asks for 3-D Secure to the sandbox bank page; a failed authentication saves nothing', async () => {
    const { client, base } = await portalOf(stack.sandbox);
    const form = await client.get(`${base}/payment-methods/new`);
    const asked = await client.post(`${base}/payment-methods/new`, {
      csrf_token: csrfTokenOf(form.text),
      confirmation_token_id: '4000 0027 6000 3184',
    });
    expect(asked.status).toBe(303);
    const challengeUrl = new URL(asked.location as string, 'http://x');
    expect(challengeUrl.pathname).toBe('/sandbox/payment-challenge');
    const setupId = (challengeUrl.searchParams.get('client_secret') as string).split('_secret_')[0];
    const confirmPath = `${base}/payment-methods/confirm?setup_intent=${setupId}`;
    expect(challengeUrl.searchParams.get('return_to')).toBe(confirmPath);

    const challenge = await client.get(asked.location as string);
    expect(challenge.status).toBe(200);
    expect(challenge.text).toContain('Fail authentication');
    const failed = await client.post('/sandbox/payment-challenge', {
      csrf_token: csrfTokenOf(challenge.text),
      client_secret: challengeUrl.searchParams.get('client_secret') as string,
      return_to: confirmPath,
      answer: 'fail',
    });
    expect([failed.status, failed.location]).toEqual([303, `${confirmPath}&authentication=failed`]);
    const back = await client.get(failed.location as string);
    expect([back.status, back.location]).toEqual([303, `${base}/payment-methods?done=card-failed`]);
    const after = await client.get(back.location as string);
    expect(after.text).toContain('Your bank did not confirm the card, so it was not saved.');
    expect(after.text).not.toContain('ending in 3184');
  });

  it('keeps a card once its 3-D Secure is completed on the sandbox bank page', async () => {
    const { client, base } = await portalOf(stack.sandbox);
    const form = await client.get(`${base}/payment-methods/new`);
    const asked = await client.post(`${base}/payment-methods/new`, {
      csrf_token: csrfTokenOf(form.text),
      confirmation_token_id: 'pm_card_authenticationRequired',
    });
    const challengeUrl = new URL(asked.location as string, 'http://x');
    const challenge = await client.get(asked.location as string);
    const completed = await client.post('/sandbox/payment-challenge', {
      csrf_token: csrfTokenOf(challenge.text),
      client_secret: challengeUrl.searchParams.get('client_secret') as string,
      return_to: challengeUrl.searchParams.get('return_to') as string,
      answer: 'complete',
    });
    expect(completed.location).toMatch(/\/payment-methods\/confirm\?setup_intent=.+&authentication=succeeded$/);
    const back = await client.get(completed.location as string);
    expect([back.status, back.location]).toEqual([303, `${base}/payment-methods?done=card`]);
    const after = await client.get(back.location as string);
    expect(after.text).toContain('Your card was saved; renewals are charged to it.');
    expect(after.text).toContain('ending in 3184');
  });

  it("offers no card form for an order that is not the customer's", async () => {
    const { client, base } = await portalOf(stack.sandbox);
    const page = await client.get(`${base}/orders/${randomUUID()}/pay`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('There is nothing here, or it is not yours.');
    expect(page.text).not.toContain('name="confirmation_token_id"');
  });

  it('in production without a processor: the buyer reads that the seller cannot take payments yet', async () => {
    const { client, base } = await portalOf(stack.production);
    const form = await client.get(`${base}/payment-methods/new`);
    expect(form.status).toBe(200);
    expect(form.text).toContain('This seller cannot take payments yet');
    expect(form.text).not.toContain('<button type="submit">Save card</button>');
    expect(form.text).not.toContain('<script');
  });
});
