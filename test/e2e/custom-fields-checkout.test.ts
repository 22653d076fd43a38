import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { firstValue } from '../support/until.js';

/**
 * Custom fields in use (docs/custom-fields.md#on-products, #answers), in the sandbox (test processor): a product
 * asks them, its checkout shows them and takes answers checked against them (the required ones by the confirm),
 * and the answers are kept on the checkout, the order and the subscription.
 */
const wall = new ManualClock(new Date('2028-05-02T09:00:00.000Z'));
let stack: TestStack;
let sandbox: string;
let shop: Tenant;
let other: Tenant;
const fields: Record<string, any> = {};

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  sandbox = stack.sandbox.baseUrl;
  shop = await createTenant(stack.sandbox);
  other = await createTenant(stack.sandbox);
  for (const [slug, type, properties] of [
    ['company', 'text', { max_length: 20 }],
    ['seats', 'number', { ge: 1, le: 50 }],
    ['terms', 'checkbox', {}],
  ] as const) {
    const created = await api('POST', '/v1/custom-fields/', { type, slug, name: slug, properties });
    expect(created.status).toBe(201);
    fields[slug] = created.body;
  }
}, 120_000);

const api = (method: string, path: string, body?: unknown, token = shop.oat) =>
  call(sandbox, method, path, { token, body });
const client = (method: string, secret: string, suffix: string, body: unknown) =>
  call(sandbox, method, `/v1/checkouts/client/${secret}${suffix}`, { body });

async function productAsking(recurring: boolean): Promise<Record<string, any>> {
  const created = await api('POST', '/v1/products/', {
    name: 'Workshop',
    ...(recurring ? { recurring_interval: 'month' } : {}),
    prices: [{ amount_type: 'fixed', price_amount: 4000 }],
    attached_custom_fields: [
      { custom_field_id: fields.company.id, required: true },
      { custom_field_id: fields.seats.id, required: false },
      { custom_field_id: fields.terms.id, required: true },
    ],
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe('a product asks custom fields', () => {
  it('shows them in order, on create, get and update; a foreign or unknown field is 422 at its place', async () => {
    const product = await productAsking(false);
    const expected = [
      { custom_field_id: fields.company.id, custom_field: fields.company, order: 0, required: true },
      { custom_field_id: fields.seats.id, custom_field: fields.seats, order: 1, required: false },
      { custom_field_id: fields.terms.id, custom_field: fields.terms, order: 2, required: true },
    ];
    expect(product.attached_custom_fields).toEqual(expected);
    expect((await api('GET', `/v1/products/${product.id}`)).body.attached_custom_fields).toEqual(expected);

    const reordered = await api('PATCH', `/v1/products/${product.id}`, {
      attached_custom_fields: [{ custom_field_id: fields.terms.id, required: false }],
    });
    expect(reordered.body.attached_custom_fields).toEqual([
      { custom_field_id: fields.terms.id, custom_field: fields.terms, order: 0, required: false },
    ]);
    const theirs = (
      await api(
        'POST',
        '/v1/custom-fields/',
        { type: 'checkbox', slug: 'theirs', name: 'T', properties: {} },
        other.oat,
      )
    ).body;
    const foreign = await api('PATCH', `/v1/products/${product.id}`, {
      attached_custom_fields: [
        { custom_field_id: fields.company.id, required: true },
        { custom_field_id: theirs.id, required: true },
      ],
    });
    expect([foreign.status, foreign.body.detail[0].loc]).toEqual([
      422,
      ['body', 'attached_custom_fields', 1, 'custom_field_id'],
    ]);
    expect((await api('GET', `/v1/products/${product.id}`)).body.attached_custom_fields).toHaveLength(1);
  });

  it('a deleted field leaves the products that asked it', async () => {
    const gone = (await api('POST', '/v1/custom-fields/', { type: 'text', slug: 'gone', name: 'G', properties: {} }))
      .body;
    const product = (
      await api('POST', '/v1/products/', {
        name: 'Short-lived',
        prices: [{ amount_type: 'fixed', price_amount: 100 }],
        attached_custom_fields: [{ custom_field_id: gone.id, required: true }],
      })
    ).body;
    expect((await api('DELETE', `/v1/custom-fields/${gone.id}`)).status).toBe(204);
    expect((await api('GET', `/v1/products/${product.id}`)).body.attached_custom_fields).toEqual([]);
  });
});

describe('a checkout takes the answers', () => {
  it('checks them at create and update, requires the required ones at confirm, and keeps them on the order', async () => {
    const product = await productAsking(false);
    const bad = await api('POST', '/v1/checkouts/', { products: [product.id], custom_field_data: { seats: 99 } });
    expect([bad.status, bad.body.detail[0].loc]).toEqual([422, ['body', 'custom_field_data', 'seats']]);
    const checkout = await api('POST', '/v1/checkouts/', {
      products: [product.id],
      customer_email: 'asked@example.com',
      custom_field_data: { company: 'Acme', unknown: 'dropped' },
    });
    expect(checkout.status).toBe(201);
    expect(checkout.body.custom_field_data).toEqual({ company: 'Acme' });
    expect(checkout.body.attached_custom_fields.map((a: any) => a.custom_field.slug)).toEqual([
      'company',
      'seats',
      'terms',
    ]);
    const secret = checkout.body.client_secret;
    const wrong = await client('PATCH', secret, '', { custom_field_data: { terms: 'yes' } });
    expect([wrong.status, wrong.body.detail[0].loc]).toEqual([422, ['body', 'custom_field_data', 'terms']]);
    const updated = await client('PATCH', secret, '', { custom_field_data: { seats: 5 } });
    expect(updated.body.custom_field_data).toEqual({ company: 'Acme', seats: 5 });

    const unanswered = await client('POST', secret, '/confirm', { confirmation_token_id: 'pm_card_visa' });
    expect([unanswered.status, unanswered.body.detail.map((d: any) => d.loc)]).toEqual([
      422,
      [['body', 'custom_field_data', 'terms']],
    ]);
    expect((await api('GET', `/v1/checkouts/${checkout.body.id}`)).body.status).toBe('open');
    const confirmed = await client('POST', secret, '/confirm', {
      confirmation_token_id: 'pm_card_visa',
      custom_field_data: { terms: true },
    });
    expect([confirmed.status, confirmed.body.status]).toEqual([200, 'confirmed']);
    const [order] = (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items;
    expect(order.custom_field_data).toEqual({ company: 'Acme', seats: 5, terms: true });
  });

  it('a subscription keeps them too, and renaming a field renames the answers', async () => {
    const product = await productAsking(true);
    const checkout = await api('POST', '/v1/checkouts/', {
      products: [product.id],
      customer_email: 'sub@example.com',
      custom_field_data: { company: 'Initech', terms: true },
    });
    const confirmed = await client('POST', checkout.body.client_secret, '/confirm', {
      confirmation_token_id: 'pm_card_visa',
    });
    expect(confirmed.status).toBe(200);
    const find = async () => {
      const subs = (await api('GET', '/v1/subscriptions/?limit=100')).body.items;
      return subs.find((s: any) => s.checkout_id === checkout.body.id);
    };
    // The subscription comes with the fulfilment, after the confirm: up to 60 s.
    const subscription = await firstValue(find, 60_000);
    expect(subscription.custom_field_data).toEqual({ company: 'Initech', terms: true });

    const renamed = await api('PATCH', `/v1/custom-fields/${fields.company.id}`, {
      type: 'text',
      slug: 'organisation',
    });
    expect(renamed.status).toBe(200);
    expect((await find()).custom_field_data).toEqual({ organisation: 'Initech', terms: true });
    const [order] = (await api('GET', `/v1/orders/?checkout_id=${checkout.body.id}`)).body.items;
    expect(order.custom_field_data).toEqual({ organisation: 'Initech', terms: true });
    await api('PATCH', `/v1/custom-fields/${fields.company.id}`, { type: 'text', slug: 'company' });
  });
});
