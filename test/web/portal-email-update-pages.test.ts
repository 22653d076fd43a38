import { randomUUID } from 'node:crypto';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { csrfTokenOf, WebClient } from './client.js';

/**
 * The portal's e-mail change pages (rest-adapter/web/portal/portal-email-update.ts, docs/customer-email-update.md):
 * the billing page asks for the change, the e-mailed link opens a confirmation that needs no session, and
 * confirming signs the customer in with the new address.
 */
let stack: TestStack;
let base: string;
let shop: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
});

async function signedInCustomer() {
  const email = `page-${randomUUID()}@example.com`;
  const customer = await new BillingFixtures(stack.production).customer(shop.organizationId, { email });
  const token = (
    await call(base, 'POST', '/v1/customer-sessions/', { token: shop.oat, body: { customer_id: customer.id } })
  ).body.token;
  const client = new WebClient(base);
  expect((await client.get(`/portal?customer_session_token=${token}`)).status).toBe(303);
  return { client, email, id: customer.id };
}

async function linkSentTo(to: string): Promise<string> {
  const [mail] = await stack.production.environment.billing.orm.em
    .fork()
    .execute<{ text_body: string }[]>(
      `select text_body from billing.outgoing_emails where to_address = ? and kind = 'customer_email_update'`,
      [to],
    );
  const url = /(https?:\/\/\S+\/verify-email\?token=\S+)/.exec(mail?.text_body ?? '')?.[1];
  if (!url) throw new Error(`no link sent to ${to}`);
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

describe('portal e-mail change pages', () => {
  it('asks from the billing page, confirms from the link in a fresh browser, and signs in there', async () => {
    const { client, id } = await signedInCustomer();
    const billing = await client.get(`/portal/${shop.slug}/billing`);
    expect(billing.text).toContain(`action="/portal/${shop.slug}/email"`);
    const next = `page-new-${randomUUID()}@example.com`;
    const forged = await client.post(`/portal/${shop.slug}/email`, { email: next });
    expect(forged.status).toBe(403);
    const asked = await client.post(`/portal/${shop.slug}/email`, {
      email: next,
      csrf_token: csrfTokenOf(billing.text),
    });
    expect(asked.status).toBe(303);
    expect(asked.location).toBe(`/portal/${shop.slug}/billing?done=email-sent`);

    const link = await linkSentTo(next);
    expect(link.startsWith(`/portal/${shop.slug}/verify-email?token=polar_cev_`)).toBe(true);
    const fresh = new WebClient(base);
    const page = await fresh.get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Confirm my new e-mail');
    // Opening the link changed nothing.
    expect((await call(base, 'GET', `/v1/customers/${id}`, { token: shop.oat })).body.email).not.toBe(next);

    const confirmed = await fresh.post(`/portal/${shop.slug}/verify-email`, {
      token: new URLSearchParams(link.split('?')[1]).get('token')!,
      csrf_token: csrfTokenOf(page.text),
    });
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe(`/portal/${shop.slug}/billing?done=email`);
    const after = await fresh.get(`/portal/${shop.slug}/billing?done=email`);
    expect(after.status).toBe(200);
    expect(after.text).toContain('Your e-mail address was changed.');
    expect(after.text).toContain(next);

    const used = await new WebClient(base).get(link);
    expect(used.status).toBe(400);
    expect(used.text).toContain('This link is invalid or has expired.');
  });

  it('shows the API refusal on the billing page', async () => {
    const { client, email } = await signedInCustomer();
    const billing = await client.get(`/portal/${shop.slug}/billing`);
    const same = await client.post(`/portal/${shop.slug}/email`, { email, csrf_token: csrfTokenOf(billing.text) });
    expect(same.status).toBe(400);
    expect(same.text).toContain('Enter a new, valid e-mail address.');
  });
});
