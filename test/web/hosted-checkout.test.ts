// The hosted checkout page (rest-adapter/web/checkout/checkout.routes.ts) over plain HTTP, as a browser without
// JavaScript uses it: GET the page, POST its one form (CSRF token and cookie), follow the redirects.
// The merchant side is set up with the official SDK; what the buyer did is checked through the API.
import type { Polar } from '@polar-sh/sdk';
import { ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { checkoutBody } from '../../rest-adapter/web/checkout/checkout.views.js';
import { csrfTokenOf, WebClient } from './client.js';

let stack: TestStack;
let owner: Tenant;
let merchant: Polar;
let monthly: string;
let yen: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  merchant = polarClient(stack.sandbox, owner.oat);
  monthly = (
    await ok(
      merchant.products.create({
        name: 'Pro <monthly>',
        description: 'Everything in Pro.',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1900, priceCurrency: 'usd' }],
      }),
    )
  ).id;
  yen = (
    await ok(
      merchant.products.create({
        name: 'Tea set',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 1000, priceCurrency: 'jpy' }],
      }),
    )
  ).id;
  await ok(
    merchant.discounts.create({
      name: 'Launch',
      type: 'percentage',
      basisPoints: 1000,
      duration: 'once',
      code: 'LAUNCH10',
    } as never),
  );
});

const pathOf = (url: string) => new URL(url).pathname;
const open = async (body: Record<string, unknown> = {}) =>
  ok(merchant.checkouts.create({ products: [monthly], ...body } as never));
const publicCheckout = async (clientSecret: string) =>
  (await call(stack.production.baseUrl, 'GET', `/v1/checkouts/client/${clientSecret}`)).body as Record<string, any>;
const statusOf = async (id: string) => (await ok(merchant.checkouts.get({ id }))).status;

/** GET the page, then POST its form with `fields` (the CSRF token taken from the page). */
async function submit(web: WebClient, path: string, fields: Record<string, string>) {
  const page = await web.get(path);
  expect(page.status).toBe(200);
  return web.post(path, { csrf_token: csrfTokenOf(page.text), ...fields });
}

describe('the hosted checkout page', () => {
  it('shows the product, the price in the currency’s own minor units and the Subscribe button', async () => {
    const checkout = await open();
    const web = new WebClient(stack.sandbox.baseUrl);
    const page = await web.get(pathOf(checkout.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.text).toContain('Pro &lt;monthly&gt;');
    expect(page.text).toContain('Everything in Pro.');
    expect(page.text).toContain('$19.00 / month');
    expect(page.text).toContain('>Subscribe</button>');
    expect(page.text).toContain('name="confirmation_token_id"');
    expect(page.text).toContain('<span class="brand">Organization '); // the seller's name, not the service's
    expect(page.text).not.toContain('<script');

    const tea = await ok(merchant.checkouts.create({ products: [yen] }));
    const teaPage = await web.get(pathOf(tea.url));
    expect(teaPage.text).toContain('¥1,000');
    expect(teaPage.text).toContain('>Pay</button>');
  });

  it('lets the buyer choose among the checkout’s products', async () => {
    const checkout = await ok(merchant.checkouts.create({ products: [monthly, yen] }));
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    const page = await web.get(path);
    expect(page.text).toContain(`name="product_id" value="${monthly}" checked`);
    expect(page.text).toContain(`name="product_id" value="${yen}"`);
    const chosen = await web.post(path, { csrf_token: csrfTokenOf(page.text), product_id: yen, action: 'update' });
    expect(chosen.status).toBe(303);
    const after = await web.get(path);
    expect(after.text).toContain('<h1>Tea set</h1>');
    expect(after.text).toContain('¥1,000');
    expect((await ok(merchant.checkouts.get({ id: checkout.id }))).productId).toBe(yen);
  });

  it('refuses a post without the form’s CSRF token and changes nothing', async () => {
    const checkout = await open();
    const web = new WebClient(stack.sandbox.baseUrl);
    await web.get(pathOf(checkout.url));
    const res = await web.post(pathOf(checkout.url), {
      customer_email: 'x@example.com',
      confirmation_token_id: 'pm_card_visa',
      action: 'pay',
    });
    expect(res.status).toBe(403);
    expect(res.text).toContain('This form has expired');
    expect(await statusOf(checkout.id)).toBe('open');
  });

  it('applies a discount code through the client update, and shows a wrong code’s error', async () => {
    const checkout = await open();
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    const wrong = await submit(web, path, {
      discount_code: 'NOPE',
      customer_email: 'ada@example.com',
      action: 'update',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('Discount code: Discount code is invalid.');
    expect(wrong.text).toContain('value="ada@example.com"');

    const applied = await submit(web, path, {
      discount_code: 'launch10',
      customer_email: 'ada@example.com',
      action: 'update',
    });
    expect(applied.status).toBe(303);
    expect(applied.location).toBe(path);
    const page = await web.get(path);
    expect(page.text).toContain('Discount (Launch)');
    expect(page.text).toContain('−$1.90');
    expect(page.text).toContain('$17.10 / month');
    const stored = await ok(merchant.checkouts.get({ id: checkout.id }));
    expect(stored).toMatchObject({ discountAmount: 190, totalAmount: 1710, customerEmail: 'ada@example.com' });
  });

  it('shows an invalid e-mail and a declined card on the page; the checkout stays open', async () => {
    const checkout = await open();
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    const badEmail = await submit(web, path, {
      customer_email: 'not-an-email',
      confirmation_token_id: 'pm_card_visa',
      action: 'pay',
    });
    expect(badEmail.status).toBe(422);
    expect(badEmail.text).toMatch(/E-mail: [^<]*email/i);

    const declined = await submit(web, path, {
      customer_email: 'decline@example.com',
      confirmation_token_id: 'pm_card_chargeDeclined',
      action: 'pay',
    });
    expect(declined.status).toBe(400);
    expect(declined.text).toContain('Your card was declined.');
    expect(declined.text).toContain('value="decline@example.com"');
    expect(await statusOf(checkout.id)).toBe('open');
  });

  it('pays with pm_card_visa, then shows the success page; the order is paid', async () => {
    const checkout = await open();
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    const paid = await submit(web, path, {
      customer_email: 'paid@example.com',
      customer_name: 'Paid Buyer',
      country: 'us',
      confirmation_token_id: 'pm_card_visa',
      action: 'pay',
    });
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`${path}/confirmation`);
    let page = await web.get(`${path}/confirmation`);
    for (let i = 0; i < 20 && page.text.includes('http-equiv="refresh"'); i++) {
      await new Promise(resolve => setTimeout(resolve, 200));
      page = await web.get(`${path}/confirmation`);
    }
    expect(page.status).toBe(200);
    expect(page.text).toContain('Thank you!');
    expect(page.text).toContain('Your subscription is active.');
    expect(await statusOf(checkout.id)).toBe('succeeded');
    const orders = await call(stack.sandbox.baseUrl, 'GET', `/v1/orders/?checkout_id=${checkout.id}`, {
      token: owner.oat,
    });
    const order = (orders.body.items as Record<string, unknown>[]).find(o => o.checkout_id === checkout.id);
    expect(order).toMatchObject({ status: 'paid', total_amount: 1900 });

    // Done: the page now leads to the confirmation, and a new post changes nothing.
    const again = await web.get(path);
    expect(again.status).toBe(303);
    expect(again.location).toBe(`${path}/confirmation`);
  });

  it('offers a trial with Start trial: the card is saved, nothing is charged, the subscription is trialing', async () => {
    const checkout = await open({ trialInterval: 'day', trialIntervalCount: 7 });
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    const page = await web.get(path);
    expect(page.text).toContain('>Start trial</button>');
    expect(page.text).toContain('Free for 7 days, then $19.00 / month.');
    const started = await submit(web, path, {
      customer_email: 'trial@example.com',
      confirmation_token_id: 'pm_card_visa',
      action: 'pay',
    });
    expect(started.status).toBe(303);
    let done = await web.get(`${path}/confirmation`);
    for (let i = 0; i < 20 && done.text.includes('http-equiv="refresh"'); i++) {
      await new Promise(resolve => setTimeout(resolve, 200));
      done = await web.get(`${path}/confirmation`);
    }
    expect(done.text).toContain('Your trial has started.');
    const stored = await ok(merchant.checkouts.get({ id: checkout.id }));
    const subscriptions = await call(
      stack.sandbox.baseUrl,
      'GET',
      `/v1/subscriptions/?customer_id=${stored.customerId}`,
      {
        token: owner.oat,
      },
    );
    expect(subscriptions.body.items).toEqual([expect.objectContaining({ status: 'trialing' })]);
  });

  it('sends the buyer to the merchant’s success_url with {CHECKOUT_ID} replaced', async () => {
    const checkout = await open({ successUrl: 'https://shop.example.com/thanks?checkout_id={CHECKOUT_ID}' });
    const web = new WebClient(stack.sandbox.baseUrl);
    const path = pathOf(checkout.url);
    await submit(web, path, {
      customer_email: 'redirect@example.com',
      confirmation_token_id: 'pm_card_visa',
      action: 'pay',
    });
    let res = await web.get(`${path}/confirmation`);
    for (let i = 0; i < 20 && res.status === 200; i++) {
      await new Promise(resolve => setTimeout(resolve, 200));
      res = await web.get(`${path}/confirmation`);
    }
    expect(res.status).toBe(303);
    expect(res.location).toBe(`https://shop.example.com/thanks?checkout_id=${checkout.id}`);
  });

  it('says clearly when a checkout is unknown or expired', async () => {
    const web = new WebClient(stack.sandbox.baseUrl);
    const unknown = await web.get('/checkout/polar_c_doesnotexist');
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('This checkout does not exist.');

    const checkout = await open();
    const em = stack.sandbox.environment.billing.orm.em.fork();
    await em
      .getConnection()
      .execute(`update billing.checkouts set expires_at = now() - interval '1 minute' where id = ?`, [checkout.id]);
    const expired = await web.get(pathOf(checkout.url));
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('This checkout has expired.');
  });

  it("in production: Stripe's Payment Element with Stripe configured, a clear refusal without a processor", async () => {
    const prodOwner = await createTenant(stack.production);
    const prod = polarClient(stack.production, prodOwner.oat);
    const product = await ok(
      prod.products.create({
        name: 'Prod plan',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 500, priceCurrency: 'usd' }],
      }),
    );
    const checkout = await ok(prod.checkouts.create({ products: [product.id] }));
    const web = new WebClient(stack.production.baseUrl);
    const page = await web.get(pathOf(checkout.url));
    expect(page.status).toBe(200);
    // This stack's production has no processor configured: the buyer is told, and cannot press Pay.
    expect(page.text).toContain('This seller cannot take payments yet');
    expect(page.text).toMatch(/<button type="submit" name="action" value="pay" class="pay" disabled>/);
    expect(page.text).not.toContain('name="confirmation_token_id"');
    expect(page.text).not.toContain('<script');
    // A post anyway (the form's default button) gets the same words, not the operator's settings.
    const posted = await web.post(pathOf(checkout.url), {
      csrf_token: csrfTokenOf(page.text),
      action: 'pay',
      customer_email: 'buyer@example.com',
      country: 'US',
    });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('This seller cannot take payments yet');
    expect(posted.text).not.toContain('STRIPE_SECRET_KEY');

    const publicView = await publicCheckout(checkout.clientSecret);
    // Stripe without a publishable key cannot mount a card field either.
    const noKey = checkoutBody({ checkout: publicView, csrfToken: 't', cardEntry: 'stripe' }).value;
    expect(noKey).toContain('This seller cannot take payments yet');
    // With Stripe.js: the Payment Element's mount point in subscription mode, no field asking for an id.
    const withStripe = checkoutBody({
      checkout: publicView,
      csrfToken: 't',
      cardEntry: 'stripe',
      stripe: { publishableKey: 'pk_test_x', stripeJsUrl: 'https://js.stripe.com/v3/' },
    }).value;
    expect(withStripe).toContain('data-stripe-card data-publishable-key="pk_test_x" data-mode="subscription"');
    expect(withStripe).toContain('data-amount="500" data-currency="usd" data-setup-future-usage="off_session"');
    expect(withStripe).toContain('<input type="hidden" name="confirmation_token_id" value="">');
    expect(withStripe).not.toMatch(/confirmation token id|ctoken_/i);
  });
});
