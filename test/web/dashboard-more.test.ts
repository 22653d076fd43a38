import { buyWithBenefits, createBenefit } from '../support/portal-benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { until } from '../support/until.js';
import { useDashboardTenant, EVIL, signInWithCsrf } from './dashboard-support.js';

/**
 * The dashboard's customer benefits and meters, webhook endpoints (create, edit, delete, the disabled state)
 * and the discount and checkout link edits over real HTTP (rest-adapter/web/dashboard, docs/dashboard.md):
 * each change read back through the API, CSRF, a member's rights as the API grants them, escaping. In the
 * sandbox, which lets a webhook endpoint point anywhere (docs/webhooks.md).
 */
const ESCAPED = '&lt;img src=x onerror=alert(1)&gt;&quot;&#39;';
let stack: TestStack;
let base: string;
let owner: Tenant;
let stranger: Tenant;
let memberEmail: string;
let dash: string;

useDashboardTenant(
  {
    environment: 'sandbox',
    memberPrefix: 'more-member',
  },
  async tenant => {
    ({ stack, base, owner, memberEmail, dash } = tenant);
    stranger = await createTenant(stack.sandbox);
  },
);

const signedIn = (email: string) => signInWithCsrf(base, email, `${dash}/webhooks`);

const api = async (method: string, path: string, body?: unknown, token = owner.oat) =>
  call(base, method, path, { token, ...(body ? { body } : {}) });

describe('customers: benefits and meters', () => {
  it("shows the customer's benefit grants and meters as the API answers them, descriptions escaped", async () => {
    const customer = await api('POST', '/v1/customers/', { email: 'meg@example.com', name: 'Meg' });
    expect(customer.status).toBe(201);
    const customerId = customer.body.id as string;
    const benefit = await createBenefit(stack.sandbox, owner, {
      type: 'custom',
      description: `Support ${EVIL}`,
      properties: { note: 'Hi' },
    });
    await buyWithBenefits(stack.sandbox, owner, customerId, [benefit.id], 'Support plan');
    const meter = await api('POST', '/v1/meters/', {
      name: 'API calls',
      filter: { conjunction: 'and', clauses: [{ property: 'name', operator: 'eq', value: 'api.call' }] },
      aggregation: { func: 'count' },
    });
    expect(meter.status).toBe(201);
    const events = [1, 2, 3].map(() => ({ name: 'api.call', customer_id: customerId }));
    expect((await api('POST', '/v1/events/ingest', { events })).status).toBe(200);

    // The customer's meter is paired by the usage job that reads the ingested events: up to 60 s.
    let meters: Record<string, any>[] = [];
    await until(async () => {
      await stack.sandbox.environment.billing.jobs.drain();
      meters = (await api('GET', `/v1/customer-meters/?customer_id=${customerId}`)).body.items;
      return meters.length > 0;
    }, 60_000);
    const grants = (await api('GET', `/v1/benefit-grants/?customer_id=${customerId}`)).body.items;
    expect(meters).toHaveLength(1);
    expect(meters[0]).toMatchObject({ consumed_units: 3, credited_units: 0, balance: -3 });

    const { client } = await signedIn(owner.email);
    const page = await client.get(`${dash}/customers/${customerId}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      `<tr data-grant="${grants[0].id}"><td>Support ${ESCAPED}</td><td>custom</td><td>Granted</td>`,
    );
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain(
      `<tr data-customer-meter="${meters[0].id}"><td>API calls</td><td class="num" data-consumed="3">3</td><td class="num" data-credited="0">0</td><td class="num" data-balance="-3">-3</td></tr>`,
    );
  });
});

describe('webhook endpoints', () => {
  it('creates an endpoint, edits it (URL, events, disabled with the reason) and deletes it, read back through the API', async () => {
    const { client, csrf } = await signedIn(owner.email);
    const form = (await client.get(`${dash}/webhooks`)).text;
    expect(form).toContain('<input type="checkbox" name="events" value="subscription.cycled">');
    expect(form).toContain('<option value="2026-10">2026-10</option>');
    const created = await client.post(`${dash}/webhooks/endpoints`, {
      csrf_token: csrf,
      url: 'https://hooks.example.com/in',
      name: 'Main',
      format: 'raw',
      api_version: '2026-10',
      events: ['order.paid', 'subscription.cycled'],
    });
    expect(created.status).toBe(303);
    const id = created.location!.split('/webhooks/endpoints/')[1].split('?')[0];
    expect(created.location).toBe(`${dash}/webhooks/endpoints/${id}?notice=endpoint-created`);
    const read = (await api('GET', `/v1/webhooks/endpoints/${id}`)).body;
    expect(read).toMatchObject({
      url: 'https://hooks.example.com/in',
      name: 'Main',
      api_version: '2026-10',
      events: ['order.paid', 'subscription.cycled'],
      enabled: true,
      organization_id: owner.organizationId,
    });
    const shown = await client.get(created.location!);
    expect(shown.text).toContain(`<code class="secret">${read.secret}</code>`);
    expect(shown.text).toContain('data-state="enabled"');

    const edited = await client.post(`${dash}/webhooks/endpoints/${id}`, {
      csrf_token: csrf,
      url: 'https://hooks.example.com/v2',
      name: 'Main',
      events: ['order.refunded'],
    });
    expect(edited.location).toBe(`${dash}/webhooks/endpoints/${id}?notice=saved`);
    expect((await api('GET', `/v1/webhooks/endpoints/${id}`)).body).toMatchObject({
      url: 'https://hooks.example.com/v2',
      events: ['order.refunded'],
      enabled: false,
    });
    const disabled = await client.get(`${dash}/webhooks/endpoints/${id}`);
    expect(disabled.text).toContain('data-state="disabled"');
    expect(disabled.text).toContain('10 most recent events all failed');
    expect((await client.get(`${dash}/webhooks`)).text).toContain('<strong data-disabled>Disabled</strong>');

    const deleted = await client.post(`${dash}/webhooks/endpoints/${id}/delete`, { csrf_token: csrf });
    expect(deleted.location).toBe(`${dash}/webhooks?notice=endpoint-deleted`);
    expect((await api('GET', `/v1/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it("shows the API's refusal of an event type the endpoint's version does not know; a post without CSRF is 403; nothing made", async () => {
    const { client, csrf } = await signedIn(owner.email);
    const before = (await api('GET', `/v1/webhooks/endpoints?organization_id=${owner.organizationId}`)).body.items;
    // Without an API version an endpoint gets only the 0.4x SDKs' types: `subscription.cycled` is the API's 422.
    const refused = await client.post(`${dash}/webhooks/endpoints`, {
      csrf_token: csrf,
      url: 'https://hooks.example.com/old',
      format: 'raw',
      api_version: '',
      events: ['subscription.cycled'],
    });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('role="alert"');
    expect(refused.text).toContain('value="https://hooks.example.com/old"');
    const forged = await client.post(`${dash}/webhooks/endpoints`, {
      url: 'https://hooks.example.com/forged',
      format: 'raw',
      events: ['order.paid'],
    });
    expect(forged.status).toBe(403);
    const after = (await api('GET', `/v1/webhooks/endpoints?organization_id=${owner.organizationId}`)).body.items;
    expect(after).toEqual(before);
  });

  it('escapes HTML in an endpoint URL and name, and answers 404 for another organization’s endpoint', async () => {
    const created = await api('POST', '/v1/webhooks/endpoints', {
      url: `https://hooks.example.com/?q=${EVIL}`,
      name: `Hook ${EVIL}`,
      format: 'raw',
      events: ['order.paid'],
    });
    expect(created.status).toBe(201);
    const { client } = await signedIn(owner.email);
    for (const path of [`${dash}/webhooks`, `${dash}/webhooks/endpoints/${created.body.id}`]) {
      const page = await client.get(path);
      expect(page.status).toBe(200);
      expect(page.text).not.toContain('<img src=x');
      expect(page.text).toContain(`Hook ${ESCAPED}`);
      expect(page.text).toContain(`https://hooks.example.com/?q=${ESCAPED}`);
    }
    const theirs = await api(
      'POST',
      '/v1/webhooks/endpoints',
      { url: 'https://elsewhere.example.com/', format: 'raw', events: [] },
      stranger.oat,
    );
    expect((await client.get(`${dash}/webhooks/endpoints/${theirs.body.id}`)).status).toBe(404);
  });
});

describe('discount and checkout link edits', () => {
  it("edits a discount's name, code and most redemptions, then clears the code and the limit", async () => {
    const discount = (
      await api('POST', '/v1/discounts/', { name: 'Spring', type: 'percentage', basis_points: 1500, duration: 'once' })
    ).body;
    const { client, csrf } = await signedIn(owner.email);
    expect((await client.get(`${dash}/discounts`)).text).toContain(`href="${dash}/discounts/${discount.id}"`);
    const saved = await client.post(`${dash}/discounts/${discount.id}`, {
      csrf_token: csrf,
      name: 'Spring sale',
      code: 'SPRING15',
      max_redemptions: '25',
    });
    expect(saved.location).toBe(`${dash}/discounts/${discount.id}?notice=discount-saved`);
    expect((await api('GET', `/v1/discounts/${discount.id}`)).body).toMatchObject({
      name: 'Spring sale',
      code: 'SPRING15',
      max_redemptions: 25,
      basis_points: 1500,
    });
    const page = await client.get(saved.location!);
    expect(page.text).toContain('value="SPRING15"');
    expect(page.text).toContain('The discount was saved.');

    await client.post(`${dash}/discounts/${discount.id}`, { csrf_token: csrf, name: 'Spring sale', code: '' });
    expect((await api('GET', `/v1/discounts/${discount.id}`)).body).toMatchObject({
      name: 'Spring sale',
      code: null,
      max_redemptions: null,
    });

    // A post without the CSRF token changes nothing.
    const before = (await api('GET', `/v1/discounts/${discount.id}`)).body;
    const forged = await client.post(`${dash}/discounts/${discount.id}`, { name: 'Forged' });
    expect(forged.status).toBe(403);
    expect((await api('GET', `/v1/discounts/${discount.id}`)).body).toEqual(before);
  });

  it("edits a checkout link's label, products and success URL; no product is refused, unchanged", async () => {
    const product = async (name: string) =>
      (await api('POST', '/v1/products/', { name, prices: [{ amount_type: 'fixed', price_amount: 700 }] })).body
        .id as string;
    const [first, second] = [await product('Mug'), await product('Shirt')];
    const link = (await api('POST', '/v1/checkout-links/', { payment_processor: 'stripe', products: [first] })).body;
    const { client, csrf } = await signedIn(owner.email);
    const saved = await client.post(`${dash}/checkout-links/${link.id}`, {
      csrf_token: csrf,
      label: `Shop ${EVIL}`,
      products: [second],
      success_url: 'https://shop.example.com/thanks',
    });
    expect(saved.location).toBe(`${dash}/checkout-links/${link.id}?notice=link-saved`);
    const read = (await api('GET', `/v1/checkout-links/${link.id}`)).body;
    expect(read.label).toBe(`Shop ${EVIL}`);
    expect(read.products.map((p: { id: string }) => p.id)).toEqual([second]);
    expect(read.success_url).toBe('https://shop.example.com/thanks');
    const page = await client.get(saved.location!);
    expect(page.text).not.toContain('<img src=x');
    expect(page.text).toContain(`value="Shop ${ESCAPED}"`);
    expect(page.text).toContain(`value="${second}" checked`);

    const none = await client.post(`${dash}/checkout-links/${link.id}`, { csrf_token: csrf, label: 'Empty' });
    expect(none.status).toBe(422);
    expect((await api('GET', `/v1/checkout-links/${link.id}`)).body).toEqual(read);
  });

  it('lets a member edit a checkout link and an endpoint, as the API does (its rules are scopes, not roles)', async () => {
    const product = (
      await api('POST', '/v1/products/', { name: 'Cap', prices: [{ amount_type: 'fixed', price_amount: 900 }] })
    ).body.id as string;
    const link = (await api('POST', '/v1/checkout-links/', { payment_processor: 'stripe', products: [product] })).body;
    const endpoint = (
      await api('POST', '/v1/webhooks/endpoints', { url: 'https://hooks.example.com/m', format: 'raw', events: [] })
    ).body;
    const { client, csrf } = await signedIn(memberEmail);
    const linkSaved = await client.post(`${dash}/checkout-links/${link.id}`, {
      csrf_token: csrf,
      label: 'By a member',
      products: [product],
    });
    expect(linkSaved.status).toBe(303);
    expect((await api('GET', `/v1/checkout-links/${link.id}`)).body.label).toBe('By a member');
    const endpointSaved = await client.post(`${dash}/webhooks/endpoints/${endpoint.id}`, {
      csrf_token: csrf,
      url: 'https://hooks.example.com/member',
      enabled: 'on',
      events: ['order.paid'],
    });
    expect(endpointSaved.status).toBe(303);
    expect((await api('GET', `/v1/webhooks/endpoints/${endpoint.id}`)).body).toMatchObject({
      url: 'https://hooks.example.com/member',
      events: ['order.paid'],
      enabled: true,
    });
  });
});
