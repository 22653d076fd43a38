import { call, type Tenant } from '../support/stack.js';
import { useDashboardTenant, EVIL, signInWithCsrf } from './dashboard-support.js';

/**
 * Tiered seat prices on the product forms and the rename of a saved metric dashboard over real HTTP
 * (docs/dashboard.md): each change read back through `/v1`; the API's validation shown on the form with nothing
 * made; CSRF; escaping of a typed name.
 */
let base: string;
let owner: Tenant;
let dash: string;

useDashboardTenant(
  {
    ownerName: 'Tier Shop',
    memberPrefix: 'tiers-member',
  },
  tenant => {
    ({ base, owner, dash } = tenant);
  },
);

const api = async (method: string, path: string, body?: unknown) =>
  call(base, method, path, { token: owner.oat, ...(body ? { body } : {}) });
const liveProducts = async () =>
  (await api('GET', `/v1/products/?organization_id=${owner.organizationId}&limit=100`)).body.items as Record<
    string,
    any
  >[];

describe('tiered seat prices', () => {
  it('creates a product with three graduated seat tiers (blank rows ignored), read back through the API', async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/products`);
    const form = await client.get(`${dash}/products`);
    for (let i = 0; i < 5; i++) expect(form.text).toContain(`name="tier_price_${i}"`);

    const created = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Team tiers',
      price_type: 'seat_based',
      seat_tier_type: 'graduated',
      tier_min_0: '1',
      tier_max_0: '5',
      tier_price_0: '10.00',
      tier_min_1: '',
      tier_max_1: '',
      tier_price_1: '',
      tier_min_2: '6',
      tier_max_2: '20',
      tier_price_2: '8.50',
      tier_min_3: '21',
      tier_max_3: '',
      tier_price_3: '7',
      recurring_interval: 'month',
    });
    expect(created.status).toBe(303);
    const productId = created.location!.split('/products/')[1].split('?')[0];
    const product = (await api('GET', `/v1/products/${productId}`)).body;
    expect(product.prices).toHaveLength(1);
    expect(product.prices[0]).toMatchObject({
      amount_type: 'seat_based',
      seat_tiers: {
        seat_tier_type: 'graduated',
        tiers: [
          { min_seats: 1, max_seats: 5, price_per_seat: 1000 },
          { min_seats: 6, max_seats: 20, price_per_seat: 850 },
          { min_seats: 21, max_seats: null, price_per_seat: 700 },
        ],
      },
    });
    const page = await client.get(`${dash}/products/${productId}`);
    expect(page.text).toContain(
      '$10.00 / month per seat from 1 seat to 5 seats; $8.50 / month per seat from 6 seats to 20 seats; $7.00 / month per seat from 21 seats (graduated)',
    );
  });

  it("shows the API's refusal of tiers with a gap on the form, and a bad seat count as the form's own, nothing made", async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/products`);
    const before = (await liveProducts()).length;
    const gap = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Gappy',
      price_type: 'seat_based',
      tier_min_0: '1',
      tier_max_0: '5',
      tier_price_0: '10',
      tier_min_1: '8',
      tier_max_1: '',
      tier_price_1: '9',
      recurring_interval: 'month',
    });
    expect(gap.status).toBe(422);
    expect(gap.text).toContain('Tiers must be contiguous: each tier starts one seat after the previous one ends.');
    expect(gap.text).toContain('name="tier_min_1" value="8"');

    const open = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Open early',
      price_type: 'seat_based',
      tier_min_0: '1',
      tier_max_0: '',
      tier_price_0: '10',
      tier_min_1: '2',
      tier_max_1: '',
      tier_price_1: '9',
      recurring_interval: 'month',
    });
    expect(open.status).toBe(422);
    expect(open.text).toContain('Only the last tier may have no maximum.');

    const typo = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Typo',
      price_type: 'seat_based',
      tier_min_0: 'one',
      tier_price_0: '10',
      recurring_interval: 'month',
    });
    expect(typo.status).toBe(422);
    expect(typo.text).toContain('Give seat tier 1 as whole seat counts');
    expect(await liveProducts()).toHaveLength(before);
  });

  it("replaces a product's price with a tiered seat price from the product page", async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, `${dash}/products`);
    const made = await client.post(`${dash}/products`, {
      csrf_token: csrf,
      name: 'Flat team',
      price_type: 'fixed',
      price: '30',
      recurring_interval: 'month',
    });
    expect(made.status).toBe(303);
    const productId = made.location!.split('/products/')[1].split('?')[0];
    const changed = await client.post(`${dash}/products/${productId}/prices`, {
      csrf_token: csrf,
      price_type: 'seat_based',
      tier_min_0: '1',
      tier_max_0: '10',
      tier_price_0: '12.00',
      tier_min_1: '11',
      tier_max_1: '',
      tier_price_1: '9.00',
    });
    expect(changed.location).toBe(`${dash}/products/${productId}?notice=price-changed`);
    const after = (await api('GET', `/v1/products/${productId}`)).body;
    expect(after.prices).toHaveLength(1);
    expect(after.prices[0].seat_tiers).toMatchObject({
      seat_tier_type: 'volume',
      tiers: [
        { min_seats: 1, max_seats: 10, price_per_seat: 1200 },
        { min_seats: 11, max_seats: null, price_per_seat: 900 },
      ],
    });
  });
});

describe('renaming a saved metric dashboard', () => {
  it('renames it from the overview (its metrics kept, the name escaped), refuses an empty name and a post without CSRF', async () => {
    const { client, csrf } = await signInWithCsrf(base, owner.email, dash);
    const saved = await client.post(`${dash}/metric-dashboards`, {
      csrf_token: csrf,
      name: 'Money',
      metrics: ['revenue', 'active_subscriptions'],
    });
    expect(saved.status).toBe(303);
    const id = /dashboard=([0-9a-f-]+)/.exec(saved.location!)![1];
    const overview = await client.get(dash);
    expect(overview.text).toContain(`action="${dash}/metric-dashboards/${id}/rename"`);

    const renamed = await client.post(`${dash}/metric-dashboards/${id}/rename`, {
      csrf_token: csrf,
      name: `Cash ${EVIL}`,
    });
    expect(renamed.status).toBe(303);
    expect(renamed.location).toBe(`${dash}?dashboard=${id}&notice=dashboard-renamed`);
    const after = (await api('GET', `/v1/metrics/dashboards/${id}`)).body;
    expect(after).toMatchObject({ name: `Cash ${EVIL}`, metrics: ['revenue', 'active_subscriptions'] });
    const shown = await client.get(renamed.location!);
    expect(shown.text).toContain('The dashboard was renamed.');
    expect(shown.text).toContain('Cash &lt;img src=x onerror=alert(1)&gt;');
    expect(shown.text).not.toContain('<img src=x');

    const empty = await client.post(`${dash}/metric-dashboards/${id}/rename`, { csrf_token: csrf, name: '' });
    expect(empty.status).toBe(422);
    const forged = await client.post(`${dash}/metric-dashboards/${id}/rename`, { name: 'Forged' });
    expect(forged.status).toBe(403);
    expect((await api('GET', `/v1/metrics/dashboards/${id}`)).body.name).toBe(`Cash ${EVIL}`);
  });
});
