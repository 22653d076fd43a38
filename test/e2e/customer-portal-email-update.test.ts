import { randomUUID } from 'node:crypto';
import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The portal's e-mail change (docs/customer-email-update.md): request → a link to the new address through
 * the e-mail outbox (read here as an inbox) → check → verify, which changes the address, records
 * `customer.updated`, tells the old address and answers a new customer session. SDK 1.0.1 and REST.
 */
let stack: TestStack;
let base: string;
let alice: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.production.baseUrl;
  alice = await createTenant(stack.production);
});

const em = () => stack.production.environment.billing.orm.em.fork();
const polar = (accessToken: string) => createPolar({ accessToken, baseUrl: base });

/** A customer of `tenant` and a customer session token for it. */
async function signedIn(tenant: Tenant = alice, options: { email?: string } = {}) {
  const email = options.email ?? `kim-${randomUUID()}@example.com`;
  const customer = await new BillingFixtures(stack.production).customer(tenant.organizationId, { email });
  const session = await call(base, 'POST', '/v1/customer-sessions/', {
    token: tenant.oat,
    body: { customer_id: customer.id },
  });
  return { id: customer.id, email, token: session.body.token as string };
}

/** The messages queued to `to`, oldest first. */
const outbox = (to: string): Promise<any[]> =>
  em().execute(
    'select kind, subject, text_body from billing.outgoing_emails where to_address = ? order by created_at',
    [to],
  );

/** The token of the newest verification link sent to `to`. */
async function tokenSentTo(to: string): Promise<string> {
  const [last] = (await outbox(to)).filter(m => m.kind === 'customer_email_update').slice(-1);
  const match = /verify-email\?token=([\w-]+)/.exec(last?.text_body ?? '');
  if (!match) throw new Error(`no verification link sent to ${to}`);
  return match[1]!;
}

const request = (token: string, email: string) =>
  call(base, 'POST', '/v1/customer-portal/customers/me/email-update/request', { token, body: { email } });

describe('customer_portal:customers e-mail update', () => {
  it('changes the address once the link is followed: verified, customer.updated, old address told', async () => {
    const kim = await signedIn();
    const next = `kim-new-${randomUUID()}@example.com`;
    await expect(polar(kim.token).customerPortal.customers.requestEmailUpdate({ email: next })).resolves.toBeNull();

    const [mail] = await outbox(next);
    expect(mail).toMatchObject({ kind: 'customer_email_update', subject: 'Verify your new email address' });
    expect(mail.text_body).toContain(`/portal/${alice.slug}/verify-email?token=polar_cev_`);
    const token = await tokenSentTo(next);
    // Nothing changed yet.
    expect((await call(base, 'GET', `/v1/customers/${kim.id}`, { token: alice.oat })).body.email).toBe(kim.email);

    // The portal's client holds the customer's session; check and verify need no credential (below, none).
    await expect(polar(kim.token).customerPortal.customers.checkEmailUpdate({ token })).resolves.toBeUndefined();
    const verified = await polar(kim.token).customerPortal.customers.verifyEmailUpdate({ token });
    expect(verified.token).toMatch(/^polar_cst_/);

    const me = await call(base, 'GET', '/v1/customer-portal/customers/me', { token: verified.token });
    expect(me.body).toMatchObject({ id: kim.id, email: next, email_verified: true });
    const [event] = await em().execute(
      `select payload->>'email' as email from billing.events where type = 'customer.updated' and payload->>'id' = ? order by created_at desc limit 1`,
      [kim.id],
    );
    expect(event).toEqual({ email: next });
    const [notice] = await outbox(kim.email);
    expect(notice).toMatchObject({ kind: 'customer_email_changed', subject: 'Your email address has been changed' });
    expect(notice.text_body).toContain(next);

    // The token worked once.
    const again = await call(base, 'POST', '/v1/customer-portal/customers/me/email-update/verify', { body: { token } });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      error: 'InvalidCustomerEmailUpdate',
      detail: 'This email update request is invalid or has expired.',
    });
    const check = await call(base, 'GET', `/v1/customer-portal/customers/me/email-update/check?token=${token}`);
    expect(check.status).toBe(401);
  });

  it('keeps only the newest request: an older link stops working', async () => {
    const kim = await signedIn();
    const first = `first-${randomUUID()}@example.com`;
    const second = `second-${randomUUID()}@example.com`;
    expect((await request(kim.token, first)).status).toBe(202);
    const old = await tokenSentTo(first);
    expect((await request(kim.token, second)).status).toBe(202);
    const check = await call(base, 'GET', `/v1/customer-portal/customers/me/email-update/check?token=${old}`);
    expect(check.status).toBe(401);
    const ok = await call(
      base,
      'GET',
      `/v1/customer-portal/customers/me/email-update/check?token=${await tokenSentTo(second)}`,
    );
    expect(ok.status).toBe(204);
    expect(ok.text).toBe('');
  });

  it("refuses an address that became another customer's (422 at token) and changes nothing", async () => {
    const kim = await signedIn();
    const taken = `taken-${randomUUID()}@example.com`;
    expect((await request(kim.token, taken)).status).toBe(202);
    const token = await tokenSentTo(taken);
    await signedIn(alice, { email: taken });
    const res = await call(base, 'POST', '/v1/customer-portal/customers/me/email-update/verify', { body: { token } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      { type: 'value_error', loc: ['body', 'token'], msg: 'This email address is already in use.', input: taken },
    ]);
    expect((await call(base, 'GET', `/v1/customers/${kim.id}`, { token: alice.oat })).body.email).toBe(kim.email);
  });

  it('refuses bad requests: same address, bad e-mail, no session, a Core API token, changes turned off', async () => {
    const kim = await signedIn();
    const same = await request(kim.token, kim.email.toUpperCase());
    expect(same.status).toBe(422);
    expect(same.body.detail[0]).toMatchObject({
      loc: ['body', 'email'],
      msg: 'New email is the same as your current email.',
    });
    expect((await request(kim.token, 'not-an-email')).status).toBe(422);
    expect((await request('', `x-${randomUUID()}@example.com`)).status).toBe(401);
    expect((await request(alice.oat, `x-${randomUUID()}@example.com`)).status).toBe(401);

    const shop = await createTenant(stack.production);
    const settings = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
      token: shop.pat,
      body: {
        customer_portal_settings: {
          usage: { show: true },
          subscription: { update_seats: true, update_plan: true },
          customer: { allow_email_change: false },
        },
      },
    });
    expect(settings.status).toBe(200);
    const lee = await signedIn(shop);
    const off = `off-${randomUUID()}@example.com`;
    const refused = await request(lee.token, off);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 'NotPermitted',
      detail: 'Email changes are not enabled for this organization.',
    });
    expect(await outbox(off)).toEqual([]);

    const unknown = await call(base, 'POST', '/v1/customer-portal/customers/me/email-update/verify', {
      body: { token: `polar_cev_${randomUUID()}` },
    });
    expect(unknown.status).toBe(401);
  });
});
