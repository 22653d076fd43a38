import { EmailWorld, type Merchant } from './support/customer-emails.js';

/**
 * The order confirmation end to end (docs/email.md#customer-e-mails): a sale through the real API, the
 * e-mail queued with its event, sent by the `email.send` job through the service's SmtpMailer to a real
 * SMTP server, read back as a mail client reads it; its one-time portal link; the switch.
 */
jest.setTimeout(120_000);
const world = new EmailWorld();
let ann: Merchant;

beforeAll(async () => {
  await world.start('customer_emails_order');
  ann = await world.merchant('Ann & Co <Tools>');
}, 120_000);
afterAll(() => world.close());

describe('order confirmation', () => {
  it('reaches the buyer with both parts, the amount charged, the invoice and a one-time portal link', async () => {
    const product = await ann.product({
      name: 'Icon pack <b>',
      prices: [{ amount_type: 'fixed', price_amount: 1999, price_currency: 'usd' }],
    });
    const buyer = ann.alias('buyer');
    await ann.buy(buyer, product);
    const mail = await world.mail(buyer, 'Your Icon pack <b> order confirmation');
    expect(mail.from?.value[0]).toEqual({ name: 'Ann & Co <Tools>', address: 'billing@example.test' });
    expect(mail.text).toContain('Total: $19.99');
    expect(mail.html).toContain('Icon pack &lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('$19.99');
    const slug = ann.owner.slug;
    const portal = world.link(mail.text, 'Manage your purchases in the customer portal');
    const invoice = world.link(mail.text, 'Download the invoice');
    expect(portal).toMatch(new RegExp(`^${world.base}/portal/${slug}/orders\\?login_token=polar_cel_`));
    expect(invoice).toMatch(new RegExp(`/portal/${slug}/orders/[0-9a-f-]+/invoice\\?login_token=`));
    // No secret but the link's own token.
    expect(mail.text).not.toMatch(/polar_(cst|oat|pat)_/);

    // The link signs in once: the cookie, then the view without the token.
    const first = await fetch(portal, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/portal/${slug}/orders`);
    expect(first.headers.get('set-cookie')).toContain('polar_sandbox_portal_session=polar_cst_');
    // Used: to the sign-in page, then back to the view.
    const again = await fetch(portal, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(
      `/portal/${slug}/request?expired=1&return_to=${encodeURIComponent(`/portal/${slug}/orders`)}`,
    );
  });

  it('is not queued when the organization turned it off', async () => {
    await ann.emailSettings({ order_confirmation: false });
    const product = await ann.product({ name: 'Quiet pack', prices: [{ amount_type: 'fixed', price_amount: 500 }] });
    const buyer = ann.alias('quiet');
    const checkout = await ann.buy(buyer, product);
    const orders = async () => (await ann.api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items ?? [];
    for (let i = 0; i < 100 && (await orders()).length === 0; i++) await new Promise(r => setTimeout(r, 50));
    expect(await orders()).toHaveLength(1);
    expect(await world.outbox(buyer)).toEqual([]);
    await ann.emailSettings({});
  });

  it('is retried with backoff while the SMTP server refuses, then delivered once', async () => {
    const product = await ann.product({ name: 'Retry pack', prices: [{ amount_type: 'fixed', price_amount: 700 }] });
    const buyer = ann.alias('retry');
    world.inbox.refuse = true;
    try {
      await ann.buy(buyer, product);
      let rows: Record<string, any>[] = [];
      for (let i = 0; i < 200 && !(rows[0]?.attempts >= 1); i++) {
        await new Promise(r => setTimeout(r, 50));
        rows = await world.outbox(buyer);
      }
      expect(rows).toMatchObject([{ status: 'pending', attempts: 1, last_error: expect.stringContaining('451') }]);
    } finally {
      world.inbox.refuse = false;
    }
    await world.mail(buyer, 'Your Retry pack order confirmation');
    expect(world.inbox.to(buyer)).toHaveLength(1);
    expect(await world.outbox(buyer)).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });
});
