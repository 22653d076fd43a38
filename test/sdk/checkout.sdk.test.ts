// Selling with Polar's official SDK `@polar-sh/sdk` 0.48.1 (which zod-validates every response): a
// merchant creates a checkout, the customer's browser confirms it with a test payment method, and the
// order, the payment and the subscription are what Polar would show. The sandbox uses the built-in test
// processor (Stripe's test method names); production without a processor refuses paid checkouts.
import type { Polar } from '@polar-sh/sdk';
import { NotOpenCheckout } from '@polar-sh/sdk/models/errors/notopencheckout.js';
import { PaymentError } from '@polar-sh/sdk/models/errors/paymenterror.js';
import { failure, ok, polarClient } from '../support/sdk.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

let stack: TestStack;
let owner: Tenant;
let merchant: Polar;
let browser: Polar;
let monthly: string;
let oneTime: string;
let free: string;

const charges = async (checkoutId: string) => {
  const em = stack.sandbox.environment.billing.orm.em.fork();
  return em
    .getConnection()
    .execute<{ status: string; amount: string }[]>(
      `select status, amount from billing.test_processor_charges where metadata->>'checkout_id' = ?`,
      [checkoutId],
    );
};

beforeAll(async () => {
  stack = await sharedTestStack();
  owner = await createTenant(stack.sandbox);
  merchant = polarClient(stack.sandbox, owner.oat);
  browser = polarClient(stack.sandbox);
  monthly = (
    await ok(
      merchant.products.create({
        name: 'Pro monthly',
        recurringInterval: 'month',
        prices: [{ amountType: 'fixed', priceAmount: 1900, priceCurrency: 'usd' }],
      }),
    )
  ).id;
  oneTime = (
    await ok(
      merchant.products.create({
        name: 'Lifetime licence',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 5000, priceCurrency: 'usd' }],
      }),
    )
  ).id;
  free = (
    await ok(
      merchant.products.create({ name: 'Free tier', recurringInterval: 'month', prices: [{ amountType: 'free' }] }),
    )
  ).id;
});

describe('checkouts with the SDK', () => {
  it('sells a paid recurring product: the order is paid, the subscription active, one charge', async () => {
    const checkout = await ok(merchant.checkouts.create({ products: [monthly], customerEmail: 'buyer@example.com' }));
    expect(checkout).toMatchObject({
      status: 'open',
      paymentProcessor: 'stripe',
      amount: 1900,
      discountAmount: 0,
      netAmount: 1900,
      taxAmount: 0,
      totalAmount: 1900,
      currency: 'usd',
      productId: monthly,
      isPaymentRequired: true,
      isPaymentSetupRequired: true,
    });
    expect(checkout.clientSecret).toMatch(/^polar_c_/);

    const confirmed = await ok(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa', customerName: 'Ada Buyer' },
      }),
    );
    expect(confirmed.status).toBe('confirmed');
    expect(confirmed.customerSessionToken).toMatch(/^polar_cst_/);
    expect(confirmed.organization.id).toBe(owner.organizationId);

    const done = await ok(merchant.checkouts.get({ id: checkout.id }));
    expect(done.status).toBe('succeeded');
    expect(done.customerId).toBeTruthy();

    const orders = await ok(merchant.orders.list({ checkoutId: checkout.id }));
    expect(orders.result.items).toHaveLength(1);
    const order = await ok(merchant.orders.get({ id: orders.result.items[0].id }));
    expect(order).toMatchObject({
      status: 'paid',
      paid: true,
      subtotalAmount: 1900,
      discountAmount: 0,
      netAmount: 1900,
      taxAmount: 0,
      totalAmount: 1900,
      dueAmount: 1900,
      refundableAmount: 1900,
      billingReason: 'subscription_create',
      customerId: done.customerId,
      productId: monthly,
      checkoutId: checkout.id,
    });
    expect(order.invoiceNumber).toMatch(/-0001$/);
    expect(order.items).toEqual([expect.objectContaining({ label: 'Pro monthly', amount: 1900, proration: false })]);
    expect(order.customer.email).toBe('buyer@example.com');

    const subscription = await ok(merchant.subscriptions.get({ id: order.subscriptionId! }));
    expect(subscription).toMatchObject({ status: 'active', amount: 1900, productId: monthly, checkoutId: checkout.id });

    const payments = await ok(merchant.payments.list({ checkoutId: checkout.id }));
    expect(payments.result.items).toEqual([
      expect.objectContaining({ status: 'succeeded', amount: 1900, processor: 'stripe', orderId: order.id }),
    ]);
    expect(await charges(checkout.id)).toEqual([{ status: 'succeeded', amount: '1900' }]);

    // The success page's session opens the portal, where the customer sees this order (CustomerOrder).
    const customerSession = confirmed.customerSessionToken!;
    const mine = await ok(browser.customerPortal.orders.list({ customerSession }, {}));
    expect(mine.result.items.map(o => o.id)).toEqual([order.id]);
    const own = await ok(browser.customerPortal.orders.get({ customerSession }, { id: order.id }));
    expect(own).toMatchObject({ id: order.id, totalAmount: 1900, status: 'paid' });
    expect(own.product?.organization.id).toBe(owner.organizationId);
  });

  it('sells a one-time product: a purchase order, no subscription', async () => {
    const checkout = await ok(merchant.checkouts.create({ products: [oneTime] }));
    expect(checkout.isPaymentSetupRequired).toBe(false);
    await ok(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_mastercard', customerEmail: 'once@example.com' },
      }),
    );
    const [order] = (await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items;
    expect(order).toMatchObject({ status: 'paid', totalAmount: 5000, billingReason: 'purchase', subscriptionId: null });
  });

  it('answers a declined card 400 PaymentError and leaves the checkout open for another card', async () => {
    const checkout = await ok(
      merchant.checkouts.create({ products: [monthly], customerEmail: 'declined@example.com' }),
    );
    const error = await failure(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_chargeDeclined' },
      }),
      PaymentError,
    );
    expect(error.statusCode).toBe(400);
    expect(error.data$.detail).toBe('Your card was declined.');
    expect((await ok(browser.checkouts.clientGet({ clientSecret: checkout.clientSecret }))).status).toBe('open');
    expect((await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items).toHaveLength(0);
    const failed = await ok(merchant.payments.list({ checkoutId: checkout.id }));
    expect(failed.result.items).toEqual([
      expect.objectContaining({ status: 'failed', amount: 1900, declineMessage: 'Your card was declined.' }),
    ]);

    // Another card: paid, and confirming again is refused as Polar refuses it.
    await ok(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
      }),
    );
    const again = await failure(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
      }),
      NotOpenCheckout,
    );
    expect(again.statusCode).toBe(403);
    expect((await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items).toHaveLength(1);
    expect((await charges(checkout.id)).map(c => c.status).sort()).toEqual(['failed', 'succeeded']);
  });

  it('takes a discount code off the order as Polar does', async () => {
    const discount = await ok(
      merchant.discounts.create({
        name: 'Quarter off',
        type: 'percentage',
        duration: 'forever',
        basisPoints: 2500,
        code: 'QUARTER',
      }),
    );
    const checkout = await ok(merchant.checkouts.create({ products: [monthly], customerEmail: 'code@example.com' }));
    const updated = await ok(
      browser.checkouts.clientUpdate({
        clientSecret: checkout.clientSecret,
        checkoutUpdatePublic: { discountCode: 'quarter' },
      }),
    );
    expect(updated).toMatchObject({
      amount: 1900,
      discountAmount: 475,
      netAmount: 1425,
      totalAmount: 1425,
      discountId: discount.id,
    });
    await ok(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
      }),
    );
    const [order] = (await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items;
    expect(order).toMatchObject({
      subtotalAmount: 1900,
      discountAmount: 475,
      netAmount: 1425,
      totalAmount: 1425,
      discountId: discount.id,
    });
    expect(await charges(checkout.id)).toEqual([{ status: 'succeeded', amount: '1425' }]);
    expect((await ok(merchant.discounts.get({ id: discount.id }))).redemptionsCount).toBe(1);
    // An unknown code is a 422 at the field.
    const other = await ok(merchant.checkouts.create({ products: [monthly] }));
    const response = await call(stack.sandbox.baseUrl, 'PATCH', `/v1/checkouts/client/${other.clientSecret}`, {
      body: { discount_code: 'NOPE' },
    });
    expect(response.status).toBe(422);
    expect(response.body.detail[0].loc).toEqual(['body', 'discount_code']);
  });

  it('starts a trial: the card is saved, not charged; the subscription trials; the order is 0', async () => {
    const checkout = await ok(
      merchant.checkouts.create({
        products: [monthly],
        customerEmail: 'trial@example.com',
        trialInterval: 'day',
        trialIntervalCount: 14,
      }),
    );
    expect(checkout).toMatchObject({
      activeTrialInterval: 'day',
      activeTrialIntervalCount: 14,
      isPaymentRequired: false,
    });
    await ok(
      browser.checkouts.clientConfirm({
        clientSecret: checkout.clientSecret,
        checkoutConfirmStripe: { confirmationTokenId: 'pm_card_visa' },
      }),
    );
    const [order] = (await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items;
    expect(order).toMatchObject({
      status: 'paid',
      subtotalAmount: 0,
      totalAmount: 0,
      billingReason: 'subscription_create',
    });
    const subscription = await ok(merchant.subscriptions.get({ id: order.subscriptionId! }));
    expect(subscription.status).toBe('trialing');
    expect(subscription.trialEnd!.getTime() - subscription.trialStart!.getTime()).toBe(14 * 24 * 3600 * 1000);
    expect(await charges(checkout.id)).toEqual([]);
  });

  it('sells a free product with an order of 0 and no card', async () => {
    const checkout = await ok(merchant.checkouts.create({ products: [free], customerEmail: 'free@example.com' }));
    expect(checkout).toMatchObject({ isFreeProductPrice: true, isPaymentFormRequired: false, totalAmount: 0 });
    await ok(browser.checkouts.clientConfirm({ clientSecret: checkout.clientSecret, checkoutConfirmStripe: {} }));
    const [order] = (await ok(merchant.orders.list({ checkoutId: checkout.id }))).result.items;
    expect(order).toMatchObject({ status: 'paid', totalAmount: 0 });
    expect((await ok(merchant.subscriptions.get({ id: order.subscriptionId! }))).status).toBe('active');
  });
});

describe('production without a payment processor', () => {
  it('refuses a paid checkout with the error naming the setting, and still sells a free one', async () => {
    const tenant = await createTenant(stack.production);
    const sdk = polarClient(stack.production, tenant.oat);
    const paid = await ok(
      sdk.products.create({
        name: 'Paid',
        recurringInterval: null,
        prices: [{ amountType: 'fixed', priceAmount: 900 }],
      }),
    );
    const checkout = await ok(sdk.checkouts.create({ products: [paid.id], customerEmail: 'p@example.com' }));
    const response = await call(
      stack.production.baseUrl,
      'POST',
      `/v1/checkouts/client/${checkout.clientSecret}/confirm`,
      {
        body: { confirmation_token_id: 'pm_card_visa' },
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('PaymentProcessorNotConfigured');
    expect(response.body.detail).toContain('STRIPE_SECRET_KEY');

    const gratis = await ok(
      sdk.products.create({ name: 'Gratis', recurringInterval: null, prices: [{ amountType: 'free' }] }),
    );
    const freeCheckout = await ok(sdk.checkouts.create({ products: [gratis.id], customerEmail: 'g@example.com' }));
    await ok(
      polarClient(stack.production).checkouts.clientConfirm({
        clientSecret: freeCheckout.clientSecret,
        checkoutConfirmStripe: {},
      }),
    );
    expect((await ok(sdk.checkouts.get({ id: freeCheckout.id }))).status).toBe('succeeded');
  });
});
