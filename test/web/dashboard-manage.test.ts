import { formatMoney } from '../../kit/money/format.js';
import { MemberRole } from '../../subgraphs/identity/memberships/membership.entity.js';
import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';
import { csrfTokenOf, WebClient } from './client.js';
import { useDashboardTenant, PASSWORD, signIn } from './dashboard-support.js';

/**
 * The dashboard's management pages over real HTTP (docs/dashboard.md): a subscription's plan change with
 * the API's own preview, the organization's settings forms, the members list, and where sign-in lands.
 * Every action is checked by reading the result back through `/v1`.
 */
const EVIL = '<img src=x onerror=alert(1)>';
let stack: TestStack;
let base: string;
let owner: Tenant;
let memberEmail: string;
let memberId: string;
let dash: string;

useDashboardTenant(
  {
    ownerName: 'Manage Shop',
    memberPrefix: 'manage-member',
  },
  tenant => {
    ({ stack, base, owner, memberEmail, memberId, dash } = tenant);
  },
);

const signedIn = (email: string) => signIn(base, email);

const api = (method: string, path: string, body?: unknown) => call(base, method, path, { token: owner.oat, body });
const organization = async () => (await api('GET', `/v1/organizations/${owner.organizationId}`)).body;

describe('sign-in', () => {
  it('lands on /dashboard without return_to, and from there on the only organization', async () => {
    const client = new WebClient(base);
    const res = await client.logIn(owner.email, PASSWORD);
    expect(res.status).toBe(303);
    expect(res.location).toBe('/dashboard');
    expect((await client.get('/dashboard')).location).toBe(dash);
  });
});

describe('a plan change', () => {
  let basic: Awaited<ReturnType<BillingFixtures['product']>>;
  let premium: Awaited<ReturnType<BillingFixtures['product']>>;
  let free: Awaited<ReturnType<BillingFixtures['product']>>;
  let fixtures: BillingFixtures;
  const subscribe = async (plan = basic, amount = 500) => {
    const customer = await fixtures.customer(owner.organizationId);
    return fixtures.subscription({
      organizationId: owner.organizationId,
      customerId: customer.id,
      productId: plan.product.id,
      priceIds: [plan.price.id],
      amount,
      startedAt: new Date(Date.now() - 86_400_000),
    });
  };

  beforeAll(async () => {
    fixtures = new BillingFixtures(stack.production);
    basic = await fixtures.product(owner.organizationId, { name: 'Basic', amount: 500 });
    premium = await fixtures.product(owner.organizationId, { name: 'Premium', amount: 2000 });
    free = await fixtures.product(owner.organizationId, { name: 'Free', amount: 0 });
  });

  it("previews with the API's own amounts, formatted, changing nothing; an upgrade without a card is the API's 402", async () => {
    const s = await subscribe();
    const client = await signedIn(owner.email);
    const list = await client.get(`${dash}/subscriptions`);
    expect(list.text).toContain(`href="${dash}/subscriptions/${s.id}"`);
    const page = await client.get(`${dash}/subscriptions/${s.id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-pending="none"');
    expect(page.text).toContain(`<option value="${premium.product.id}"`);

    const body = { product_id: premium.product.id, proration_behavior: 'prorate' };
    const expected = await api('POST', `/v1/subscriptions/${s.id}/update-preview`, body);
    expect(expected.status).toBe(200);
    expect(expected.body.items.length).toBeGreaterThan(0);
    const preview = await client.get(
      `${dash}/subscriptions/${s.id}?product_id=${premium.product.id}&proration_behavior=prorate`,
    );
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(`data-total="${expected.body.total_amount}"`);
    expect(preview.text).toContain(formatMoney(BigInt(expected.body.total_amount), 'usd'));
    const shown = [...preview.text.matchAll(/<tr data-line><td>[^<]*.*?data-amount="(-?\d+)"/g)].map(m => Number(m[1]));
    expect(shown).toEqual(expected.body.items.map((i: { amount: number }) => i.amount));
    // The preview changed nothing.
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.product_id).toBe(basic.product.id);

    // The upgrade is charged now, and this customer has no card: the API's 402, shown on the page.
    const upgrade = await client.post(`${dash}/subscriptions/${s.id}/change-plan`, {
      csrf_token: csrfTokenOf(preview.text),
      ...body,
    });
    const refused = await api('PATCH', `/v1/subscriptions/${s.id}`, body);
    expect(refused.status).toBe(402);
    expect(upgrade.status).toBe(402);
    expect(upgrade.text.replace(/&#39;/g, "'")).toContain(refused.body.detail);
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.product_id).toBe(basic.product.id);
  });

  it('changes the plan (to the free plan, prorated: no card needed), read back through the API', async () => {
    const s = await subscribe(premium, 2000);
    const client = await signedIn(owner.email);
    const body = { product_id: free.product.id, proration_behavior: 'prorate' };
    const expected = await api('POST', `/v1/subscriptions/${s.id}/update-preview`, body);
    // The unused part of the period on Premium is credited.
    expect(expected.body.items.some((i: { amount: number }) => i.amount < 0)).toBe(true);
    const preview = await client.get(
      `${dash}/subscriptions/${s.id}?product_id=${free.product.id}&proration_behavior=prorate`,
    );
    expect(preview.text).toContain(`data-total="${expected.body.total_amount}"`);
    expect(preview.text).toContain(formatMoney(BigInt(expected.body.total_amount), 'usd'));
    const changed = await client.post(`${dash}/subscriptions/${s.id}/change-plan`, {
      csrf_token: csrfTokenOf(preview.text),
      ...body,
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`${dash}/subscriptions/${s.id}?notice=plan_changed`);
    const after = (await api('GET', `/v1/subscriptions/${s.id}`)).body;
    expect(after).toMatchObject({ product_id: free.product.id, amount: 0 });
    const shownAfter = await client.get(changed.location!);
    expect(shownAfter.text).toContain('The plan was changed.');
    expect(shownAfter.text).toContain(`data-product="${free.product.id}"`);
  });

  it('shows a change at the next period as pending, and drops it', async () => {
    const s = await subscribe();
    const client = await signedIn(owner.email);
    const page = await client.get(`${dash}/subscriptions/${s.id}`);
    const changed = await client.post(`${dash}/subscriptions/${s.id}/change-plan`, {
      csrf_token: csrfTokenOf(page.text),
      product_id: premium.product.id,
      proration_behavior: 'next_period',
    });
    expect(changed.status).toBe(303);
    const read = (await api('GET', `/v1/subscriptions/${s.id}`)).body;
    expect(read.product_id).toBe(basic.product.id);
    expect(read.pending_update).toMatchObject({ product_id: premium.product.id });
    const pending = await client.get(`${dash}/subscriptions/${s.id}`);
    expect(pending.text).toContain(`data-pending-product="${premium.product.id}"`);
    expect(pending.text).toContain('Premium</strong>');

    const dropped = await client.post(`${dash}/subscriptions/${s.id}/clear-pending`, {
      csrf_token: csrfTokenOf(pending.text),
    });
    expect(dropped.location).toBe(`${dash}/subscriptions/${s.id}?notice=pending_cleared`);
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.pending_update).toBeNull();
  });

  it("refuses a post without CSRF, and shows the API's refusal of a bad product, changing nothing", async () => {
    const s = await subscribe();
    const client = await signedIn(owner.email);
    const forged = await client.post(`${dash}/subscriptions/${s.id}/change-plan`, {
      product_id: premium.product.id,
      proration_behavior: 'prorate',
    });
    expect(forged.status).toBe(403);
    const csrf = csrfTokenOf((await client.get(`${dash}/subscriptions/${s.id}`)).text);
    const bad = await client.post(`${dash}/subscriptions/${s.id}/change-plan`, { csrf_token: csrf, product_id: 'x' });
    const apiBad = await api('PATCH', `/v1/subscriptions/${s.id}`, { product_id: 'x' });
    expect(bad.status).toBe(apiBad.status);
    expect(bad.text).toContain('role="alert"');
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body).toMatchObject({
      product_id: basic.product.id,
      pending_update: null,
    });
  });
});

describe('settings', () => {
  const settings = () => `${dash}/settings`;

  it('saves the organization, subscription and portal settings, read back through the API', async () => {
    const client = await signedIn(owner.email);
    const page = await client.get(settings());
    expect(page.status).toBe(200);
    const csrf = csrfTokenOf(page.text);
    const saved = async (form: string, fields: Record<string, string>) => {
      const res = await client.post(`${settings()}/${form}`, { csrf_token: csrf, ...fields });
      expect(res.status).toBe(303);
      expect(res.location).toBe(`${settings()}?notice=saved`);
    };
    await saved('organization', {
      name: 'Manage Shop GmbH',
      email: 'billing@example.com',
      country: 'de',
      legal_name: 'Manage Shop GmbH',
      line1: 'Hauptstr. 1',
      postal_code: '10115',
      city: 'Berlin',
      address_country: 'DE',
    });
    await saved('subscriptions', {
      proration_behavior: 'next_period',
      proration_behavior_upgrade: 'invoice',
      benefit_revocation_grace_period: '7',
      prevent_trial_abuse: 'on',
    });
    await saved('portal', { update_plan: 'on', cancel: 'on' });

    const read = await organization();
    expect(read).toMatchObject({ name: 'Manage Shop GmbH', email: 'billing@example.com', country: 'DE' });
    expect(read.tax_settings).toMatchObject({
      legal_name: 'Manage Shop GmbH',
      legal_address: { line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    expect(read.subscription_settings).toEqual({
      allow_multiple_subscriptions: false,
      proration_behavior: 'next_period',
      proration_behavior_upgrade: 'invoice',
      proration_behavior_downgrade: null,
      benefit_revocation_grace_period: 7,
      prevent_trial_abuse: true,
      allow_customer_updates: false,
    });
    expect(read.customer_portal_settings).toMatchObject({
      usage: { show: false },
      subscription: { update_plan: true, update_seats: false, pause: false, cancel: true },
    });
    // The page shows what was saved.
    const again = await client.get(settings());
    expect(again.text).toContain('value="Hauptstr. 1"');
    expect(again.text).toMatch(/<option value="next_period" selected>/);

    const bad = await client.post(`${settings()}/subscriptions`, {
      csrf_token: csrf,
      proration_behavior: 'prorate',
      benefit_revocation_grace_period: 'soon',
    });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('Give the grace period as a whole number of days');
    expect((await organization()).subscription_settings.proration_behavior).toBe('next_period');
  });

  it("shows a member without the owner or admin role the API's 403, and changes nothing", async () => {
    const before = await organization();
    const client = await signedIn(memberEmail);
    const csrf = csrfTokenOf((await client.get(settings())).text);
    const res = await client.post(`${settings()}/subscriptions`, {
      csrf_token: csrf,
      proration_behavior: 'invoice',
      benefit_revocation_grace_period: '0',
    });
    expect(res.status).toBe(403);
    const refused = await call(base, 'PATCH', `/v1/organizations/${owner.organizationId}`, {
      token: await stack.production.admin.createPersonalAccessToken(memberId, ['organizations:write']),
      body: { subscription_settings: { ...before.subscription_settings, proration_behavior: 'invoice' } },
    });
    expect(refused.status).toBe(403);
    expect(res.text.replace(/&#39;/g, "'")).toContain(refused.body.detail);
    const portal = await client.post(`${settings()}/portal`, { csrf_token: csrf });
    expect(portal.status).toBe(403);
    const after = await organization();
    expect(after.subscription_settings).toEqual(before.subscription_settings);
    expect(after.customer_portal_settings).toEqual(before.customer_portal_settings);
  });

  it('refuses a settings post without CSRF, changing nothing', async () => {
    const before = await organization();
    const client = await signedIn(owner.email);
    const res = await client.post(`${settings()}/organization`, { name: 'Forged name' });
    expect(res.status).toBe(403);
    expect((await organization()).name).toBe(before.name);
  });
});

describe('members', () => {
  it('lists the members with their roles, an e-mail with HTML escaped', async () => {
    // Users have no name here, only an e-mail: one written straight to the table carries the markup.
    const odd = `odd${EVIL}-${Date.now()}@example.com`;
    const user = await stack.production.admin.createUser(`odd-${Date.now()}@example.com`, PASSWORD);
    await stack.production.environment.identity.orm.em
      .fork()
      .execute('update identity.users set email = ? where id = ?', [odd, user.id]);
    await stack.production.admin.addMember(owner.organizationId, odd, MemberRole.ADMIN);

    const client = await signedIn(memberEmail);
    const page = await client.get(`${dash}/members`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<a href="${dash}/members" aria-current="page">Members</a>`);
    const rows = [...page.text.matchAll(/<tr data-member-role="(\w+)"><td>([^<]*)<\/td>/g)].map(m => [m[2], m[1]]);
    expect(rows).toEqual(
      expect.arrayContaining([
        [owner.email, 'owner'],
        [memberEmail, 'member'],
        [`odd&lt;img src=x onerror=alert(1)&gt;-${odd.split('-').pop()}`, 'admin'],
      ]),
    );
    expect(rows).toHaveLength(3);
    expect(page.text).not.toContain('<img src=x');
  });
});
