import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { SmtpInbox, type ReceivedMail } from '../support/smtp-inbox.js';
import { call, createTenant, startTestStack, type Tenant, type TestStack } from '../support/stack.js';

/**
 * Customer e-mails end to end (docs/email.md#customer-e-mails): a sale through the real API, the
 * e-mail queued with its event, sent by the `email.send` job through the service's SmtpMailer to a
 * real SMTP server on this machine, and read back as a mail client reads it (mailparser). The sandbox
 * delivers only to the organization's members, `+alias` included, so the buyer is the owner's alias.
 */
jest.setTimeout(120_000);
const inbox = new SmtpInbox();
let stack: TestStack;
let base: string;
let owner: Tenant;

beforeAll(async () => {
  const smtp = await inbox.start();
  stack = await startTestStack('customer_emails_order', undefined, {
    SMTP_URL: smtp,
    EMAIL_FROM: 'Billing <billing@example.test>',
  });
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox, { name: 'Ann & Co <Tools>' });
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await inbox.close();
});

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
const alias = (tag: string) => owner.email.replace('@', `+${tag}@`);

/** Waits (running the job queue) until `n` messages reached `to`. */
async function mailTo(to: string, n = 1): Promise<ReceivedMail[]> {
  for (let i = 0; i < 200 && inbox.to(to).length < n; i++) {
    await stack.sandbox.environment.billing.jobs.drain();
    await new Promise(resolve => setTimeout(resolve, 50));
  }
  expect(inbox.to(to)).toHaveLength(n);
  return inbox.to(to);
}

async function buy(email: string, product: string): Promise<Record<string, any>> {
  const checkout = await api('POST', '/v1/checkouts/', { products: [product], customer_email: email });
  expect(checkout.status).toBe(201);
  const confirmed = await call(base, 'POST', `/v1/checkouts/client/${checkout.body.client_secret}/confirm`, {
    body: { confirmation_token_id: 'pm_card_visa' },
  });
  expect(confirmed.status).toBe(200);
  return checkout.body;
}

/** A link of the plain-text part, on this test's port (the e-mail names the configured public URL). */
const linkIn = (text: string, label: string) => {
  const url = new URL(new RegExp(`(?:${label}): (\\S+)`).exec(text)?.[1] ?? 'http://none.invalid/');
  return `${base}${url.pathname}${url.search}`;
};

/** Every kind on, but those given. */
async function emailSettings(off: Record<string, boolean>): Promise<void> {
  const kinds = ['order_confirmation', 'subscription_cancellation', 'subscription_confirmation', 'subscription_cycled'];
  const rest = ['subscription_past_due', 'subscription_revoked', 'subscription_uncanceled', 'subscription_updated'];
  const settings = Object.fromEntries([...kinds, ...rest].map(k => [k, true]));
  const res = await api('PATCH', `/v1/organizations/${owner.organizationId}`, {
    customer_email_settings: { ...settings, ...off },
  });
  expect(res.status).toBe(200);
}

describe('order confirmation', () => {
  it('reaches the buyer with both parts, the amount charged, the invoice and a one-time portal link', async () => {
    const product = await api('POST', '/v1/products/', {
      name: 'Icon pack <b>',
      prices: [{ amount_type: 'fixed', price_amount: 1999, price_currency: 'usd' }],
    });
    expect(product.status).toBe(201);
    const buyer = alias('buyer');
    await buy(buyer, product.body.id);
    const [{ mail }] = await mailTo(buyer);
    expect(mail.subject).toBe('Your Icon pack <b> order confirmation');
    expect(mail.from?.value[0]).toEqual({ name: 'Ann & Co <Tools>', address: 'billing@example.test' });
    expect(mail.text).toContain('Total: $19.99');
    expect(mail.html).toContain('Icon pack &lt;b&gt;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).toContain('$19.99');
    const portal = linkIn(mail.text ?? '', 'Access your purchase|Manage your purchases in the customer portal');
    const invoice = linkIn(mail.text ?? '', 'Download the invoice');
    expect(portal).toMatch(new RegExp(`^${base}/portal/${owner.slug}/orders\\?login_token=polar_cel_`));
    expect(invoice).toMatch(new RegExp(`/portal/${owner.slug}/orders/[0-9a-f-]+/invoice\\?login_token=`));
    // No secret but the link's own token.
    expect(mail.text).not.toMatch(/polar_(cst|oat|pat)_/);

    // The link signs in once: the cookie, then the view without the token.
    const first = await fetch(portal, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(`/portal/${owner.slug}/orders`);
    expect(first.headers.get('set-cookie')).toContain('polar_sandbox_portal_session=polar_cst_');
    // Used: to the sign-in page, then back to the view.
    const again = await fetch(portal, { redirect: 'manual' });
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe(
      `/portal/${owner.slug}/request?expired=1&return_to=${encodeURIComponent(`/portal/${owner.slug}/orders`)}`,
    );
  });

  it('is not queued when the organization turned it off', async () => {
    await emailSettings({ order_confirmation: false });
    const product = await api('POST', '/v1/products/', {
      name: 'Quiet pack',
      prices: [{ amount_type: 'fixed', price_amount: 500 }],
    });
    const buyer = alias('quiet');
    const checkout = await buy(buyer, product.body.id);
    const orders = async () => (await api('GET', `/v1/orders/?checkout_id=${checkout.id}`)).body.items ?? [];
    for (let i = 0; i < 100 && (await orders()).length === 0; i++) await new Promise(r => setTimeout(r, 50));
    await stack.sandbox.environment.billing.jobs.drain();
    const rows = await stack.sandbox.environment.billing.orm.em
      .fork()
      .execute('select kind from billing.outgoing_emails where to_address = ?', [buyer]);
    expect(rows).toEqual([]);
    await emailSettings({});
  });
});
