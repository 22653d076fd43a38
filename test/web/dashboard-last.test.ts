import { BillingFixtures } from '../support/subscription-fixtures.js';
import { call, type Tenant, type TestStack } from '../support/stack.js';
import { csrfTokenOf, WebClient } from './client.js';
import { useDashboardTenant, EVIL, PASSWORD, signInWithCsrf } from './dashboard-support.js';

/**
 * The dashboard's last sections over real HTTP (docs/dashboard.md): seat and metered prices on the product
 * forms, a subscription's seats, saved metric dashboards and the members' management, each change read back
 * through the API (or the members page); CSRF, a member's rights, and escaping of names.
 */
let stack: TestStack;
let base: string;
let owner: Tenant;
let memberEmail: string;
let dash: string;

useDashboardTenant(
  {
    ownerName: 'Last Shop',
    memberPrefix: 'last-member',
  },
  tenant => {
    ({ stack, base, owner, memberEmail, dash } = tenant);
  },
);

const signedIn = (email: string, path = '/products') => signInWithCsrf(base, email, `${dash}${path}`);

const api = async (method: string, path: string, body?: unknown) =>
  call(base, method, path, { token: owner.oat, ...(body ? { body } : {}) });
const idIn = (location: string | null | undefined, section: string) => location!.split(`/${section}/`)[1].split('?')[0];

describe('seat and metered prices', () => {
  it('creates a per-seat product and adds a capped metered price, read back through the API', async () => {
    const meter = await api('POST', '/v1/meters/', {
      name: `Calls ${EVIL}`,
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
      aggregation: { func: 'count' },
    });
    expect(meter.status).toBe(201);
    const { client, csrf } = await signedIn(owner.email);
    const form = await client.get(`${dash}/products`);
    expect(form.text).toContain(`<option value="${meter.body.id}">Calls &lt;img src=x onerror=alert(1)&gt;`);
    expect(form.text).not.toContain('<img src=x');

    const created = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Team plan',
      price_type: 'seat_based',
      price: '12.50',
      recurring_interval: 'month',
    });
    expect(created.status).toBe(303);
    const productId = idIn(created.location, 'products');
    const product = (await api('GET', `/v1/products/${productId}`)).body;
    expect(product.prices).toHaveLength(1);
    expect(product.prices[0]).toMatchObject({
      amount_type: 'seat_based',
      price_currency: 'usd',
      seat_tiers: { seat_tier_type: 'volume', tiers: [{ min_seats: 1, max_seats: null, price_per_seat: 1250 }] },
    });
    expect((await client.get(`${dash}/products/${productId}`)).text).toContain('$12.50 / month per seat from 1 seat');

    const metered = await client.post(`${dash}/products/${productId}/prices`, {
      csrf_token: csrf,
      price_type: 'metered_unit',
      meter_id: meter.body.id,
      unit_amount: '0.005',
      cap: '100',
    });
    expect(metered.location).toBe(`${dash}/products/${productId}?notice=price-changed`);
    const after = (await api('GET', `/v1/products/${productId}`)).body;
    // The metered price is added beside the seat price, which is kept (same id).
    expect(after.prices.map((p: { id: string }) => p.id)).toContain(product.prices[0].id);
    const unit = after.prices.find((p: { amount_type: string }) => p.amount_type === 'metered_unit');
    expect(unit).toMatchObject({ meter_id: meter.body.id, cap_amount: 10000 });
    // $0.005 typed: half a cent, Polar's decimal string of minor units (with the Decimal's trailing zeros).
    expect(unit.unit_amount).toMatch(/^0\.50*$/);
    const page = await client.get(`${dash}/products/${productId}`);
    expect(page.text).toContain('$0.005 per unit of Calls &lt;img');
    expect(page.text).toContain('capped at $100.00');
  });

  it('refuses a metered price without a meter or with a bad unit amount at the form (422), nothing made', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const before = (await api('GET', `/v1/products/?organization_id=${owner.organizationId}&limit=100`)).body;
    const noMeter = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Metered only',
      price_type: 'metered_unit',
      unit_amount: '0.01',
      recurring_interval: 'month',
    });
    expect(noMeter.status).toBe(422);
    expect(noMeter.text).toContain('Choose the meter the price charges for.');
    const badUnit = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Metered only',
      price_type: 'metered_unit',
      meter_id: '00000000-0000-4000-8000-000000000000',
      unit_amount: '1e-3',
      recurring_interval: 'month',
    });
    expect(badUnit.status).toBe(422);
    const after = (await api('GET', `/v1/products/?organization_id=${owner.organizationId}&limit=100`)).body;
    expect(after.pagination.total_count).toBe(before.pagination.total_count);
  });
});

describe("a subscription's seats", () => {
  it("previews a seat change with the API's own amounts and schedules it, read back through the API", async () => {
    const { client, csrf } = await signedIn(owner.email);
    const created = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Seats plan',
      price_type: 'seat_based',
      price: '10',
      recurring_interval: 'month',
    });
    const productId = idIn(created.location, 'products');
    const price = (await api('GET', `/v1/products/${productId}`)).body.prices[0];
    const fixtures = new BillingFixtures(stack.production);
    const customer = await fixtures.customer(owner.organizationId);
    const s = await fixtures.subscription({
      organizationId: owner.organizationId,
      customerId: customer.id,
      productId,
      priceIds: [price.id],
      amount: 2000,
      seats: 2,
      startedAt: new Date(Date.now() - 86_400_000),
    });
    const page = await client.get(`${dash}/subscriptions/${s.id}`);
    expect(page.text).toContain('data-seats-form');
    expect(page.text).toContain('Seats (now 2)');

    const body = { seats: 3, proration_behavior: 'next_period' };
    const expected = await api('POST', `/v1/subscriptions/${s.id}/update-preview`, body);
    expect(expected.status).toBe(200);
    const preview = await client.get(`${dash}/subscriptions/${s.id}?seats=3&proration_behavior=next_period`);
    expect(preview.status).toBe(200);
    expect(preview.text).toContain(`data-total="${expected.body.total_amount}"`);
    expect(preview.text).toContain('/change-seats');
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.seats).toBe(2);

    // A post without the CSRF token changes nothing.
    const forged = await client.post(`${dash}/subscriptions/${s.id}/change-seats`, { seats: '3' });
    expect(forged.status).toBe(403);
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.pending_update).toBeNull();

    const changed = await client.post(`${dash}/subscriptions/${s.id}/change-seats`, {
      csrf_token: csrfTokenOf(preview.text),
      seats: '3',
      proration_behavior: 'next_period',
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`${dash}/subscriptions/${s.id}?notice=seats_changed`);
    const after = (await api('GET', `/v1/subscriptions/${s.id}`)).body;
    expect(after.pending_update).toMatchObject({ seats: 3 });
    expect((await client.get(changed.location!)).text).toContain('Seats change to 3');

    // No seats is the API's own 422 on the page, nothing changed.
    const zero = await client.post(`${dash}/subscriptions/${s.id}/change-seats`, {
      csrf_token: csrfTokenOf(preview.text),
      seats: '0',
    });
    expect(zero.status).toBe(422);
    expect((await api('GET', `/v1/subscriptions/${s.id}`)).body.pending_update).toMatchObject({ seats: 3 });
  });
});

describe('saved metric dashboards', () => {
  it('saves the ticked metrics as a dashboard, shows only them, and deletes it, read back through the API', async () => {
    const { client, csrf } = await signedIn(owner.email, '');
    const ticked = await client.get(`${dash}?metrics=revenue&metrics=active_subscriptions`);
    expect(ticked.status).toBe(200);
    const columns = (text: string) => [...text.matchAll(/<th class="num" data-slug="([a-z_]+)"/g)].map(m => m[1]);
    expect(columns(ticked.text)).toEqual(['revenue', 'active_subscriptions']);

    const saved = await client.post(`${dash}/metric-dashboards`, {
      csrf_token: csrf,
      name: `Money ${EVIL}`,
      metrics: ['revenue', 'active_subscriptions'],
    });
    expect(saved.status).toBe(303);
    const listed = (await api('GET', `/v1/metrics/dashboards?organization_id=${owner.organizationId}`)).body;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: `Money ${EVIL}`, metrics: ['revenue', 'active_subscriptions'] });
    expect(saved.location).toBe(`${dash}?dashboard=${listed[0].id}&notice=dashboard-saved`);

    const shown = await client.get(saved.location!);
    expect(shown.text).toContain('The dashboard was saved.');
    expect(columns(shown.text)).toEqual(['revenue', 'active_subscriptions']);
    expect(shown.text).toContain(`data-saved-dashboard="${listed[0].id}"`);
    expect(shown.text).toContain('Money &lt;img src=x onerror=alert(1)&gt;');
    expect(shown.text).not.toContain('<img src=x');
    // The overview without a dashboard is the six metrics again.
    expect(columns((await client.get(dash)).text)).toHaveLength(6);

    // An empty name is the API's 422 on the page, nothing saved.
    const bad = await client.post(`${dash}/metric-dashboards`, { csrf_token: csrf, name: '', metrics: 'revenue' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('role="alert"');
    expect((await api('GET', `/v1/metrics/dashboards?organization_id=${owner.organizationId}`)).body).toHaveLength(1);
    // Without the CSRF token nothing is deleted.
    expect((await client.post(`${dash}/metric-dashboards/${listed[0].id}/delete`, {})).status).toBe(403);
    expect((await api('GET', `/v1/metrics/dashboards/${listed[0].id}`)).status).toBe(200);

    const deleted = await client.post(`${dash}/metric-dashboards/${listed[0].id}/delete`, { csrf_token: csrf });
    expect(deleted.location).toBe(`${dash}?notice=dashboard-deleted`);
    expect((await api('GET', `/v1/metrics/dashboards/${listed[0].id}`)).status).toBe(404);
  });
});

describe('members: add, change role, remove', () => {
  const roles = async (client: WebClient) => {
    const text = (await client.get(`${dash}/members`)).text;
    return Object.fromEntries(
      [...text.matchAll(/<tr data-member-role="(\w+)"><td>([^<]*)<\/td>/g)].map(m => [m[2], m[1]]),
    );
  };

  it('adds an existing user, changes their role and removes them; refuses a stranger, a member and the last owner', async () => {
    const { client, csrf } = await signedIn(owner.email, '/members');
    const page = await client.get(`${dash}/members`);
    expect(page.text).toContain('Add or invite');
    const before = await roles(client);

    // Not an e-mail address: refused, nothing invited; the typed e-mail shown again, escaped (invitations of
    // an e-mail without an account: dashboard-invitations.test.ts).
    const stranger = await client.post(`${dash}/members`, {
      csrf_token: csrf,
      email: `nobody${EVIL}@example.com`,
      role: 'member',
    });
    expect(stranger.status).toBe(422);
    expect(stranger.text).toContain('Enter a valid e-mail address');
    expect(stranger.text).toContain('value="nobody&lt;img src=x onerror=alert(1)&gt;&quot;&#39;@example.com"');
    expect(stranger.text).not.toContain('<img src=x');
    expect(await roles(client)).toEqual(before);

    const adminEmail = `last-admin-${process.pid}-${Date.now()}@example.com`;
    await stack.production.admin.createUser(adminEmail, PASSWORD);
    // Without the CSRF token nothing is added.
    expect((await client.post(`${dash}/members`, { email: adminEmail, role: 'admin' })).status).toBe(403);
    expect(await roles(client)).toEqual(before);

    const added = await client.post(`${dash}/members`, { csrf_token: csrf, email: adminEmail, role: 'admin' });
    expect(added.location).toBe(`${dash}/members?notice=member-added`);
    const shown = await client.get(added.location!);
    expect(shown.text).toContain('The member was added.');
    expect(await roles(client)).toEqual({ ...before, [adminEmail]: 'admin' });
    // The new admin reaches the organization's dashboard.
    const admin = new WebClient(base);
    expect((await admin.logIn(adminEmail, PASSWORD)).status).toBe(303);
    expect((await admin.get(dash)).status).toBe(200);

    // A member is refused with the rule's own words, nothing changed.
    const { client: member, csrf: memberCsrf } = await signedIn(memberEmail, '/members');
    expect((await member.get(`${dash}/members`)).text).not.toContain('Add or invite');
    const byMember = await member.post(`${dash}/members/remove`, { csrf_token: memberCsrf, email: adminEmail });
    expect(byMember.status).toBe(403);
    expect(byMember.text).toContain('You don&#39;t have permission to manage the organization');
    expect(await roles(client)).toEqual({ ...before, [adminEmail]: 'admin' });

    // The last owner can be neither demoted nor removed, even by themselves.
    const demote = await client.post(`${dash}/members/role`, { csrf_token: csrf, email: owner.email, role: 'admin' });
    expect(demote.status).toBe(422);
    expect(demote.text).toContain('last owner cannot be given another role');
    const removeOwner = await client.post(`${dash}/members/remove`, { csrf_token: csrf, email: owner.email });
    expect(removeOwner.status).toBe(422);
    expect(removeOwner.text).toContain('last owner cannot be removed');
    // An admin cannot make an owner.
    const { csrf: adminCsrf } = { csrf: csrfTokenOf((await admin.get(`${dash}/members`)).text) };
    const promote = await admin.post(`${dash}/members/role`, {
      csrf_token: adminCsrf,
      email: adminEmail,
      role: 'owner',
    });
    expect(promote.status).toBe(422);
    expect(await roles(client)).toEqual({ ...before, [adminEmail]: 'admin' });

    const changed = await client.post(`${dash}/members/role`, { csrf_token: csrf, email: adminEmail, role: 'member' });
    expect(changed.location).toBe(`${dash}/members?notice=member-role-changed`);
    expect(await roles(client)).toEqual({ ...before, [adminEmail]: 'member' });

    const removed = await client.post(`${dash}/members/remove`, { csrf_token: csrf, email: adminEmail });
    expect(removed.location).toBe(`${dash}/members?notice=member-removed`);
    expect(await roles(client)).toEqual(before);
    // Gone from the organization: its dashboard is the stranger's 404.
    expect((await admin.get(dash)).status).toBe(404);
  });
});
