import { call } from '../support/stack.js';
import { EmailWorld, type Merchant } from './support/customer-emails.js';

/**
 * Customer e-mails meet 3-D Secure (docs/email.md, docs/selling.md): a sale whose card asks for
 * authentication sends no confirmation while the bank waits, exactly one once the buyer authenticated
 * (the order is made by the settlement, whose `order.paid` queues it), and none when the buyer failed
 * the bank's challenge (no order). Driven through the sandbox's challenge service, the one its page uses.
 */
jest.setTimeout(120_000);
const world = new EmailWorld();
let shop: Merchant;
const challenges = () => world.stack.sandbox.environment.billing.services.paymentChallenges!;

beforeAll(async () => {
  await world.start('customer_emails_3ds');
  shop = await world.merchant('Secure Shop');
}, 120_000);
afterAll(() => world.close());

/** A checkout confirmed with a card that asks for 3-D Secure; its client secret at the bank. */
async function confirmWaiting(buyer: string, product: string) {
  const checkout = await shop.api('POST', '/v1/checkouts/', { products: [product], customer_email: buyer });
  const confirmed = await call(world.base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: '4000 0000 0000 3220' },
  });
  expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
  expect(confirmed.body.payment_processor_metadata.intent_status).toBe('requires_action');
  return { checkout: checkout.body, secret: String(confirmed.body.payment_processor_metadata.intent_client_secret) };
}

async function ordersOf(checkoutId: string): Promise<Record<string, any>[]> {
  return (await shop.api('GET', `/v1/orders/?checkout_id=${checkoutId}`)).body.items ?? [];
}

describe('the order confirmation of a sale that needed 3-D Secure', () => {
  it('is sent once, after the buyer authenticated', async () => {
    const product = await shop.product({ name: 'Secure pack', prices: [{ amount_type: 'fixed', price_amount: 4200 }] });
    const buyer = shop.alias('authenticated');
    const { checkout, secret } = await confirmWaiting(buyer, product);
    expect(await world.outbox(buyer)).toEqual([]);

    expect((await challenges().settle(secret, true)).status).toBe('succeeded');
    const mail = await world.mail(buyer, 'Your Secure pack order confirmation');
    expect(mail.text).toContain('Total: $42.00');
    // Settling again changes nothing: one order, one message.
    await challenges().settle(secret, true);
    expect(await ordersOf(checkout.id)).toHaveLength(1);
    expect((await world.outbox(buyer)).filter(row => row.kind === 'order_confirmation')).toHaveLength(1);
  });

  it('is not sent when the buyer failed the challenge', async () => {
    const product = await shop.product({
      name: 'Refused pack',
      prices: [{ amount_type: 'fixed', price_amount: 1500 }],
    });
    const buyer = shop.alias('refused');
    const { checkout, secret } = await confirmWaiting(buyer, product);
    expect((await challenges().settle(secret, false)).status).toBe('failed');
    expect(await ordersOf(checkout.id)).toEqual([]);
    expect(await world.outbox(buyer)).toEqual([]);
  });
});
