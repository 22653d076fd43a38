import { createPolar } from '@polar-sh/sdk-1/2026-10';
import { ManualClock } from '../../kit/clock.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';

/**
 * Custom fields (`/v1/custom-fields/`, docs/custom-fields.md) through SDK 1.0.1 and plain HTTP: the five types
 * with their properties, a slug unique among an organization's live fields, a type that never changes, a soft
 * delete, and another organization's field a 404.
 */
const wall = new ManualClock(new Date('2028-04-01T08:00:00.000Z'));
let stack: TestStack;
let base: string;
let shop: Tenant;
let other: Tenant;

beforeAll(async () => {
  stack = await sharedTestStack(wall);
  base = stack.production.baseUrl;
  shop = await createTenant(stack.production);
  other = await createTenant(stack.production);
}, 120_000);

const api = (method: string, path: string, body?: unknown, token = shop.oat) =>
  call(base, method, path, { token, body });
const sdk = () => createPolar({ accessToken: shop.oat, baseUrl: base });

describe('the five types, through SDK 1.0.1', () => {
  it('creates each with its properties, reads, lists by slug, filters by type and query', async () => {
    const polar = sdk();
    const text = await polar.customFields.create({
      type: 'text',
      slug: 'Company-Name',
      name: 'Company name',
      properties: { form_label: 'Company', textarea: false, min_length: 2, max_length: 80 },
      metadata: { source: 'test' },
    });
    expect(text).toMatchObject({
      type: 'text',
      slug: 'company-name',
      name: 'Company name',
      organization_id: shop.organizationId,
      properties: { form_label: 'Company', textarea: false, min_length: 2, max_length: 80 },
      metadata: { source: 'test' },
      modified_at: null,
    });
    await polar.customFields.create({ type: 'number', slug: 'seats', name: 'Seats', properties: { ge: 1, le: 500 } });
    await polar.customFields.create({ type: 'date', slug: 'start', name: 'Start date', properties: {} });
    await polar.customFields.create({ type: 'checkbox', slug: 'terms', name: 'Terms', properties: {} });
    const select = await polar.customFields.create({
      type: 'select',
      slug: 'size',
      name: 'Size',
      properties: {
        options: [
          { value: 's', label: 'Small' },
          { value: 'l', label: 'Large' },
        ],
      },
    });
    expect(select.properties).toEqual({
      options: [
        { value: 's', label: 'Small' },
        { value: 'l', label: 'Large' },
      ],
    });

    expect(await polar.customFields.get(text.id)).toEqual(text);
    const listed = await polar.customFields.list({});
    expect(listed.items.map(f => f.slug)).toEqual(['company-name', 'seats', 'size', 'start', 'terms']);
    expect(listed.pagination).toEqual({ total_count: 5, max_page: 1 });
    expect((await polar.customFields.list({ type: ['checkbox', 'date'] })).items.map(f => f.slug)).toEqual([
      'start',
      'terms',
    ]);
    expect((await polar.customFields.list({ query: 'SIZ' })).items.map(f => f.id)).toEqual([select.id]);
    expect((await polar.customFields.list({ sorting: ['-slug'] })).items[0].slug).toBe('terms');
  });

  it('updates name, slug and properties; deletes softly, and the slug is free again', async () => {
    const polar = sdk();
    const field = await polar.customFields.create({ type: 'text', slug: 'vat', name: 'VAT', properties: {} });
    wall.advance(60_000);
    const updated = await polar.customFields.update(field.id, {
      type: 'text',
      slug: 'vat-number',
      name: 'VAT number',
      properties: { form_placeholder: 'DE…' },
    });
    expect(updated).toMatchObject({ slug: 'vat-number', name: 'VAT number', properties: { form_placeholder: 'DE…' } });
    expect(updated.modified_at).not.toBeNull();
    const deleted = await api('DELETE', `/v1/custom-fields/${field.id}`);
    expect([deleted.status, deleted.text]).toEqual([204, '']);
    expect((await api('GET', `/v1/custom-fields/${field.id}`)).status).toBe(404);
    expect((await api('DELETE', `/v1/custom-fields/${field.id}`)).status).toBe(404);
    const again = await api('POST', '/v1/custom-fields/', {
      type: 'number',
      slug: 'vat-number',
      name: 'Again',
      properties: {},
    });
    expect(again.status).toBe(201);
  });
});

describe('rules and bad input change nothing', () => {
  it('a slug taken by a live field of the organization is 422 at slug; another organization may use it', async () => {
    const taken = await api('POST', '/v1/custom-fields/', {
      type: 'checkbox',
      slug: 'seats',
      name: 'Dup',
      properties: {},
    });
    expect([taken.status, taken.body.detail[0].loc, taken.body.detail[0].msg]).toEqual([
      422,
      ['body', 'slug'],
      'Custom field with this slug already exists.',
    ]);
    const elsewhere = await api(
      'POST',
      '/v1/custom-fields/',
      { type: 'checkbox', slug: 'seats', name: 'Mine', properties: {} },
      other.oat,
    );
    expect(elsewhere.status).toBe(201);
    const [seats] = (await api('GET', '/v1/custom-fields/?query=seats')).body.items;
    const rename = await api('PATCH', `/v1/custom-fields/${seats.id}`, { type: 'number', slug: 'size' });
    expect([rename.status, rename.body.detail[0].loc]).toEqual([422, ['body', 'slug']]);
    expect((await api('GET', `/v1/custom-fields/${seats.id}`)).body.slug).toBe('seats');
  });

  it("the type can't change; properties are checked per type; a bad slug or an empty select is 422", async () => {
    const [seats] = (await api('GET', '/v1/custom-fields/?query=seats')).body.items;
    const retype = await api('PATCH', `/v1/custom-fields/${seats.id}`, { type: 'text', name: 'x' });
    expect([retype.status, retype.body.detail[0].loc]).toEqual([422, ['body', 'type']]);
    const bounds = await api('PATCH', `/v1/custom-fields/${seats.id}`, {
      type: 'number',
      properties: { ge: 10, le: 1 },
    });
    expect(bounds.status).toBe(422);
    const emptySelect = await api('POST', '/v1/custom-fields/', {
      type: 'select',
      slug: 'x',
      name: 'X',
      properties: { options: [] },
    });
    expect(emptySelect.status).toBe(422);
    const badSlug = await api('POST', '/v1/custom-fields/', {
      type: 'text',
      slug: 'no spaces',
      name: 'X',
      properties: {},
    });
    expect(badSlug.status).toBe(422);
    const badType = await api('POST', '/v1/custom-fields/', { type: 'color', slug: 'c', name: 'C', properties: {} });
    expect(badType.status).toBe(422);
    expect((await api('GET', `/v1/custom-fields/${seats.id}`)).body).toEqual(seats);
  });

  it("another organization's field is a 404 to read, change or delete; scopes are Polar's", async () => {
    const [seats] = (await api('GET', '/v1/custom-fields/?query=seats')).body.items;
    expect((await api('GET', `/v1/custom-fields/${seats.id}`, undefined, other.oat)).status).toBe(404);
    expect((await api('PATCH', `/v1/custom-fields/${seats.id}`, { type: 'number', name: 'x' }, other.oat)).status).toBe(
      404,
    );
    expect((await api('DELETE', `/v1/custom-fields/${seats.id}`, undefined, other.oat)).status).toBe(404);
    const reader = await stack.production.admin.createOrganizationAccessToken(shop.organizationId, [
      'custom_fields:read',
    ]);
    expect((await api('GET', '/v1/custom-fields/', undefined, reader)).status).toBe(200);
    const write = await api(
      'POST',
      '/v1/custom-fields/',
      { type: 'checkbox', slug: 'r', name: 'R', properties: {} },
      reader,
    );
    expect(write.status).toBe(403);
    expect((await api('GET', `/v1/custom-fields/${seats.id}`)).body.name).toBe('Seats');
  });
});
