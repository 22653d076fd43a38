// 3-D Secure in the sandbox over plain HTTP (docs/selling.md): the hosted checkout with a card that asks
// for authentication goes to the simulated bank page, which shows the amount; completing it reaches the
// merchant's success_url with one order, failing it brings the buyer back to the form with the reason in
// its error box, no order, the checkout open.
import type { Polar } from '@polar-sh/sdk';
import { ok, polarClient } from '../support/sdk.js';
import { createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { csrfTokenOf, WebClient } from './client.js';

let stack: TestStack;
let owner: Tenant;
let merchant: Polar;
let productId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  merchant = polarClient(stack.sandbox, owner.oat);
  productId = (
    await ok(
      merchant.products.create({
        name: 'Lamp',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 2500, priceCurrency: 'eur' }],
      }),
    )
  ).id;
});

const orders = async (checkoutId: string) =>
  (await ok(merchant.orders.list({ organizationId: owner.organizationId } as never))).result.items.filter(
    (o: { checkoutId: string | null }) => o.checkoutId === checkoutId,
  );

/** Pays on the hosted page with `card`, then answers the bank page with `answer`; the last response. */
async function payAndAnswer(card: string, answer: 'complete' | 'fail') {
  const checkout = await ok(
    merchant.checkouts.create({ products: [productId], successUrl: 'https://merchant.example/thanks' } as never),
  );
  const web = new WebClient(stack.sandbox.baseUrl);
  const path = new URL(checkout.url).pathname;
  const page = await web.get(path);
  const paid = await web.post(path, {
    csrf_token: csrfTokenOf(page.text),
    customer_email: 'buyer@example.com',
    confirmation_token_id: card,
    action: 'pay',
  });
  expect(paid.status).toBe(303);
  const challengePath = paid.headers.get('location')!;
  expect(challengePath).toMatch(/^\/sandbox\/payment-challenge\?client_secret=ch_test_/);
  const challenge = await web.get(challengePath);
  expect(challenge.status).toBe(200);
  expect(challenge.text).toContain('€25.00');
  expect(challenge.text).toContain('Complete authentication');
  expect(challenge.text).toContain('Fail authentication');
  const query = new URL(challengePath, 'http://x').searchParams;
  const answered = await web.post('/sandbox/payment-challenge', {
    csrf_token: csrfTokenOf(challenge.text),
    client_secret: query.get('client_secret')!,
    return_to: query.get('return_to')!,
    answer,
  });
  expect(answered.status).toBe(303);
  const back = await web.get(answered.headers.get('location')!);
  return { checkout, web, back };
}

describe('the sandbox 3-D Secure challenge', () => {
  it.each(['4000 0000 0000 3220', 'pm_card_authenticationRequired'])(
    '%s completed: the success_url, one order',
    async card => {
      const { checkout, back } = await payAndAnswer(card, 'complete');
      expect([back.status, back.headers.get('location')]).toEqual([303, 'https://merchant.example/thanks']);
      expect(await orders(checkout.id)).toHaveLength(1);
    },
  );

  it.each(['pm_card_threeDSecure2Required', '4000002760003184'])(
    '%s failed: back to the form with the reason in its box, no order',
    async card => {
      const { checkout, web, back } = await payAndAnswer(card, 'fail');
      expect(back.status).toBe(303);
      const form = await web.get(back.headers.get('location')!);
      expect(form.status).toBe(200);
      expect(form.text).toMatch(/<div class="error" role="alert">We are unable to authenticate your payment method/);
      expect((await ok(merchant.checkouts.get({ id: checkout.id }))).status).toBe('open');
      expect(await orders(checkout.id)).toHaveLength(0);
    },
  );

  it('production has no challenge page', async () => {
    const res = await new WebClient(stack.production.baseUrl).get('/sandbox/payment-challenge?client_secret=x');
    expect(res.status).toBe(404);
  });
});
