import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { csrfTokenOf, WebClient } from './client.js';
import { useDashboardTenant, EVIL, signIn } from './dashboard-support.js';

/**
 * The merchant dashboard over real HTTP (rest-adapter/web/dashboard, docs/dashboard.md): the frame and its
 * organization picker, the overview's table and its scripts' CSP and caching, escaping of names the
 * merchant (or a customer) typed, CSRF, and a member without the right role refused with the API's error.
 */
let stack: TestStack;
let base: string;
let owner: Tenant;
let other: Tenant;
let memberEmail: string;
let memberId: string;

useDashboardTenant(
  {
    ownerName: `Shop ${EVIL}`,
    memberPrefix: 'dash-member',
  },
  async tenant => {
    ({ stack, base, owner, memberEmail, memberId } = tenant);
    other = await createTenant(stack.production);
  },
);

const signedIn = (email: string, at = base) => signIn(at, email);

describe('the dashboard frame', () => {
  it('sends a signed-out visitor to the sign-in, and a member of one organization straight to it', async () => {
    const anonymous = await new WebClient(base).get('/dashboard');
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe('/login');

    const client = await signedIn(owner.email);
    const picked = await client.get('/dashboard');
    expect(picked.status).toBe(303);
    expect(picked.location).toBe(`/dashboard/${owner.organizationId}`);
  });

  it('lets a member of several organizations pick one, and answers 404 for an organization they are not in', async () => {
    await stack.production.admin.addMember(other.organizationId, memberEmail, MemberRole.MEMBER);
    const client = await signedIn(memberEmail);
    const picker = await client.get('/dashboard');
    expect(picker.status).toBe(200);
    expect(picker.text).toContain(`href="/dashboard/${owner.organizationId}"`);
    expect(picker.text).toContain(`href="/dashboard/${other.organizationId}"`);
    const stranger = await createTenant(stack.production);
    const refused = await client.get(`/dashboard/${stranger.organizationId}/orders`);
    expect(refused.status).toBe(404);
  });

  it('shows the overview as a table with the environment marked, charts as scripts of this origin only', async () => {
    const client = await signedIn(owner.email);
    const page = await client.get(`/dashboard/${owner.organizationId}?start_date=2026-01-01&end_date=2026-01-03`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-environment="production"');
    expect(page.text).toMatch(
      /<nav class="sections"[^>]*>.*Orders.*Subscriptions.*Customers.*Products.*Webhooks.*Settings/s,
    );
    for (const slug of ['revenue', 'monthly_recurring_revenue', 'active_subscriptions', 'checkouts_conversion'])
      expect(page.text).toContain(`data-slug="${slug}"`);
    expect(page.text.match(/<tr data-time=/g)).toHaveLength(3);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self' ;");
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'none'");
    expect(page.text).toContain('<script src="/dashboard/assets/uplot.js" defer></script>');

    const uplot = await client.get('/dashboard/assets/uplot.js');
    expect(uplot.status).toBe(200);
    expect(uplot.headers.get('content-type')).toContain('javascript');
    expect(uplot.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(uplot.text).toContain('uPlot');
    expect((await client.get('/dashboard/assets/constructor')).status).toBe(404);

    const invalid = await client.get(`/dashboard/${owner.organizationId}?start_date=2026-01-01&end_date=2027-06-01`);
    expect(invalid.status).toBe(422);
    expect(invalid.text).toContain('The interval is too small for the given date range.');
  });

  it('escapes names everywhere: the organization, products, customers', async () => {
    const product = await call(base, 'POST', '/v1/products/', {
      token: owner.oat,
      body: { name: `Plan ${EVIL}`, prices: [{ amount_type: 'fixed', price_amount: 500, price_currency: 'usd' }] },
    });
    expect(product.status).toBe(201);
    const customer = await call(base, 'POST', '/v1/customers/', {
      token: owner.oat,
      body: { email: `evil-${Date.now()}@example.com`, name: `Eve ${EVIL}` },
    });
    expect(customer.status).toBe(201);
    const client = await signedIn(owner.email);
    for (const path of [
      '',
      '/products',
      `/products/${product.body.id}`,
      '/customers',
      `/customers/${customer.body.id}`,
    ]) {
      const page = await client.get(`/dashboard/${owner.organizationId}${path}`);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;');
    }
  });
});

describe('dashboard actions', () => {
  const settingsPath = () => `/dashboard/${owner.organizationId}/settings`;
  const emailSettings = async () =>
    (await call(base, 'GET', `/v1/organizations/${owner.organizationId}`, { token: owner.oat })).body
      .customer_email_settings;

  it('refuses a post without the CSRF token, changing nothing', async () => {
    const client = await signedIn(owner.email);
    const before = await emailSettings();
    const res = await client.post(`${settingsPath()}/emails`, { order_confirmation: 'on' });
    expect(res.status).toBe(403);
    expect(await emailSettings()).toEqual(before);
  });

  it("shows a member without the owner or admin role the API's refusal, and changes nothing", async () => {
    const client = await signedIn(memberEmail);
    const before = await emailSettings();
    const csrf = csrfTokenOf((await client.get(settingsPath())).text);
    const res = await client.post(`${settingsPath()}/emails`, { csrf_token: csrf, order_confirmation: 'on' });
    expect(res.status).toBe(403);
    const api = await call(base, 'PATCH', `/v1/organizations/${owner.organizationId}`, {
      token: await stack.production.admin.createPersonalAccessToken(memberId, ['organizations:write']),
      body: { customer_email_settings: { ...before, order_confirmation: false } },
    });
    expect(api.status).toBe(403);
    expect(res.text.replace(/&#39;/g, "'")).toContain(api.body.detail);
    expect(await emailSettings()).toEqual(before);
  });

  it('lets the owner turn an e-mail kind off through the API', async () => {
    const client = await signedIn(owner.email);
    const page = await client.get(settingsPath());
    expect(page.text).not.toContain('Sandbox clock');
    const res = await client.post(`${settingsPath()}/emails`, {
      csrf_token: csrfTokenOf(page.text),
      subscription_confirmation: 'on',
    });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`${settingsPath()}?notice=saved`);
    const settings = await emailSettings();
    expect(settings.order_confirmation).toBe(false);
    expect(settings.subscription_confirmation).toBe(true);
  });

  it('shows the sandbox its clock and its outgoing mail', async () => {
    const tenant = await createTenant(stack.sandbox);
    const client = await signedIn(tenant.email, stack.sandbox.baseUrl);
    const page = await client.get(`/dashboard/${tenant.organizationId}/settings`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-environment="sandbox"');
    expect(page.text).toContain('Sandbox clock');
    expect(page.text).toContain(`href="/sandbox/emails?organization_id=${tenant.organizationId}"`);
  });

  it('cancels and revokes subscriptions, edits and archives a product, and makes a portal link, through the API', async () => {
    const fixtures = new BillingFixtures(stack.production);
    const plan = await fixtures.product(owner.organizationId, { name: 'Team plan', amount: 1500 });
    const customer = await fixtures.customer(owner.organizationId, { name: 'Sam Subscriber' });
    const subscribe = () =>
      fixtures.subscription({
        organizationId: owner.organizationId,
        customerId: customer.id,
        productId: plan.product.id,
        priceIds: [plan.price.id],
      });
    const [first, second] = [await subscribe(), await subscribe()];
    const client = await signedIn(owner.email);
    const dash = `/dashboard/${owner.organizationId}`;
    const csrf = csrfTokenOf((await client.get(`${dash}/subscriptions?status=active`)).text);
    const subscription = async (id: string) =>
      (await call(base, 'GET', `/v1/subscriptions/${id}`, { token: owner.oat })).body;

    const canceled = await client.post(`${dash}/subscriptions/${first.id}/cancel`, { csrf_token: csrf });
    expect(canceled.location).toBe(`${dash}/subscriptions?notice=canceled`);
    expect(await subscription(first.id)).toMatchObject({ status: 'active', cancel_at_period_end: true });
    const revoked = await client.post(`${dash}/subscriptions/${second.id}/revoke`, { csrf_token: csrf });
    expect(revoked.location).toBe(`${dash}/subscriptions?notice=revoked`);
    expect(await subscription(second.id)).toMatchObject({ status: 'canceled' });
    // Revoking it again is the API's refusal, shown on the list at the API's status.
    const again = await client.post(`${dash}/subscriptions/${second.id}/revoke`, { csrf_token: csrf });
    expect(again.status).toBe(403);
    expect(again.text).toContain('role="alert"');
    const filtered = await client.get(`${dash}/subscriptions?status=canceled`);
    expect(filtered.text).toContain(`data-subscription="${second.id}"`);
    expect(filtered.text).not.toContain(`data-subscription="${first.id}"`);

    const product = `${dash}/products/${plan.product.id}`;
    const saved = await client.post(product, { csrf_token: csrf, name: 'Team plan (2027)', description: 'Seats' });
    expect(saved.location).toBe(`${product}?notice=saved`);
    const archived = await client.post(`${product}/archive`, { csrf_token: csrf });
    expect(archived.location).toBe(`${product}?notice=archived`);
    const read = await call(base, 'GET', `/v1/products/${plan.product.id}`, { token: owner.oat });
    expect(read.body).toMatchObject({ name: 'Team plan (2027)', description: 'Seats', is_archived: true });
    expect((await client.get(`${dash}/products?archived=true`)).text).toContain('Team plan (2027)');

    const portal = await client.post(`${dash}/customers/${customer.id}/portal`, { csrf_token: csrf });
    expect(portal.status).toBe(200);
    expect(portal.text).toMatch(/id="portal-link">[^<]*\/portal\?customer_session_token=polar_cst_/);
    expect(portal.text).toContain('Sam Subscriber');
    // Another organization's customer is not found on this organization's pages.
    const elsewhere = await new BillingFixtures(stack.production).customer(other.organizationId);
    expect((await client.get(`${dash}/customers/${elsewhere.id}`)).status).toBe(404);
  });
});
