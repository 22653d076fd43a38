import type { Browser } from 'playwright-core';
import { launchChromium, pageProblems } from '../support/browser.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * The seat invitation's claim page (docs/customer-seats.md#the-rules) in headless Chromium with
 * JavaScript off, in the sandbox: the link of the invitation e-mail (read from the sandbox's outgoing mail,
 * as the merchant would) shows the seat, "Claim my seat" claims it and signs the holder in to the portal;
 * the spent link, an unknown token and a post without the form's CSRF token change nothing.
 */
jest.setTimeout(120_000);

let stack: TestStack;
let base: string;
let shop: Tenant;
let fixtures: BillingFixtures;
let browser: Browser;
let subscriptionId: string;

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox, { name: 'Acme Teams' });
  const enabled = await call(base, 'PATCH', `/v1/organizations/${shop.organizationId}`, {
    token: shop.oat,
    body: { feature_settings: { seat_based_pricing_enabled: true } },
  });
  expect(enabled.status).toBe(200);
  fixtures = new BillingFixtures(stack.sandbox);
  const buyer = await fixtures.customer(shop.organizationId, { name: 'Bea Buyer' });
  const plan = await fixtures.product(shop.organizationId, { name: 'Team plan', amount: 0 });
  const sub = await fixtures.subscription({
    organizationId: shop.organizationId,
    customerId: buyer.id,
    productId: plan.product.id,
    priceIds: [plan.price.id],
    seats: 3,
  });
  subscriptionId = sub.id;
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Gives a seat to `email` and answers the seat's id and the path of the link its invitation e-mail carries. */
async function invite(email: string): Promise<{ seatId: string; link: string }> {
  const seat = await call(base, 'POST', '/v1/customer-seats', {
    token: shop.oat,
    body: { subscription_id: subscriptionId, email },
  });
  expect(seat.status).toBe(200);
  const mail = await call(base, 'GET', '/v1/sandbox/emails/', { token: shop.oat });
  expect(mail.status).toBe(200);
  const invitation = mail.body.items.find((m: any) => m.kind === 'customer_seat_invitation' && m.to === email);
  const url = /Claim it at (\S+)/.exec(invitation?.text ?? '')?.[1];
  if (!url) throw new Error(`no invitation link to ${email}`);
  // The environment's public URL names its default port; the path and query are the link.
  const link = new URL(url);
  expect(link.pathname).toBe(`/portal/${shop.slug}/claim`);
  return { seatId: seat.body.id, link: `${link.pathname}${link.search}` };
}

const seatStatus = async (seatId: string) => {
  const list = await call(base, 'GET', `/v1/customer-seats?subscription_id=${subscriptionId}`, { token: shop.oat });
  return list.body.seats.find((s: any) => s.id === seatId)?.status;
};

describe('the seat claim page', () => {
  it('opens from the invitation e-mail, claims the seat and lands signed in on the portal', async () => {
    const email = `sam-${Date.now()}@example.com`;
    const { seatId, link } = await invite(email);
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = pageProblems(page, base);
    try {
      await page.goto(`${base}${link}`);
      await page.getByRole('heading', { name: 'Claim your seat' }).waitFor();
      const facts = page.locator('dl.facts');
      await facts.getByText('Team plan').waitFor();
      await facts.getByText('Acme Teams').waitFor();
      await facts.getByText(email).waitFor();
      expect(await seatStatus(seatId)).toBe('pending');

      await page.getByRole('button', { name: 'Claim my seat' }).click();
      await page.waitForURL(`${base}/portal/${shop.slug}/subscriptions?done=claimed`);
      await page.getByText('Your seat is claimed').waitFor();
      await page.getByText(`Signed in as ${email}`).waitFor();
      const cookie = (await context.cookies(`${base}/portal/${shop.slug}/`)).find(
        c => c.name === 'polar_sandbox_portal_session',
      );
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: `/portal/${shop.slug}` });
      expect(cookie?.value).toMatch(/^polar_cst_/);
      expect(await seatStatus(seatId)).toBe('claimed');
      expect(problems).toEqual([]);

      // The spent link: a clear message, and the seat stays as it is.
      const again = await page.goto(`${base}${link}`);
      expect(again?.status()).toBe(404);
      await page.getByRole('heading', { name: 'Invitation not valid' }).waitFor();
      await page.getByText('has expired, was already used').waitFor();
      expect(await page.getByRole('button', { name: 'Claim my seat' }).count()).toBe(0);
      expect(await seatStatus(seatId)).toBe('claimed');
    } finally {
      await context.close();
    }
  });

  it('shows an unknown token as not valid, and refuses a claim without the form’s CSRF token', async () => {
    const unknown = await fetch(`${base}/portal/${shop.slug}/claim?invitation_token=not-a-token`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('Invitation not valid');

    const { seatId, link } = await invite(`kim-${Date.now()}@example.com`);
    const token = new URL(link, base).searchParams.get('invitation_token')!;
    const forged = await fetch(`${base}/portal/${shop.slug}/claim`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ invitation_token: token }).toString(),
      redirect: 'manual',
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie') ?? '').not.toContain('portal_session');
    expect(await seatStatus(seatId)).toBe('pending');
    // The token still claims from its page afterwards.
    expect((await fetch(`${base}${link}`)).status).toBe(200);
  });
});
