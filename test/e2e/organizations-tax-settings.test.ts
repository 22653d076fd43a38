import { call } from '../support/stack.js';
import { alice, base, bob, useOrganizationsStack } from './support/organizations.js';

/**
 * An organization's country and tax settings (beyond Polar; docs/tax-settings.md) through the public REST API
 * and POST /graphql: set on create and PATCH, partial updates, bad input answered at its `loc` with
 * nothing stored.
 */
useOrganizationsStack();

const EMPTY = { legal_name: null, legal_address: null, tax_id: null, registrations: [], stripe_tax_enabled: false };
const BERLIN = {
  line1: 'Unter den Linden 1',
  line2: null,
  postal_code: '10117',
  city: 'Berlin',
  state: null,
  country: 'DE',
};

const get = (id: string) => call(base, 'GET', `/v1/organizations/${id}`, { token: alice.pat });
const patch = (id: string, body: unknown, token = alice.pat) =>
  call(base, 'PATCH', `/v1/organizations/${id}`, { token, body });

describe('tax settings on create', () => {
  it('stores the country and every setting, and serves them on the organization', async () => {
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: alice.pat,
      body: {
        name: 'Tax Seller GmbH',
        slug: `tax-${alice.slug}`,
        country: 'DE',
        default_tax_behavior: 'inclusive',
        tax_settings: {
          legal_name: 'Tax Seller GmbH',
          legal_address: { line1: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DE' },
          tax_id: 'DE 123 456 788',
          registrations: [
            { country: 'US', state: 'US-CA', rate_basis_points: 725, display_name: 'CA Sales Tax' },
            { country: 'US', state: 'NY', rate_basis_points: 400, display_name: 'NY Sales Tax' },
            { country: 'GB', rate_basis_points: 2000, display_name: 'VAT' },
          ],
          stripe_tax_enabled: true,
        },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ country: 'DE', default_tax_behavior: 'inclusive' });
    expect(res.body.tax_settings).toEqual({
      legal_name: 'Tax Seller GmbH',
      legal_address: BERLIN,
      tax_id: ['DE123456788', 'eu_vat'],
      registrations: [
        { country: 'US', state: 'CA', rate_basis_points: 725, display_name: 'CA Sales Tax' },
        { country: 'US', state: 'NY', rate_basis_points: 400, display_name: 'NY Sales Tax' },
        { country: 'GB', state: null, rate_basis_points: 2000, display_name: 'VAT' },
      ],
      stripe_tax_enabled: true,
    });
    expect((await get(res.body.id)).body.tax_settings).toEqual(res.body.tax_settings);
  });

  it('gives organizations without settings the empty ones (no country: no tax)', async () => {
    const res = await get(alice.organizationId);
    expect(res.body.country).toBeNull();
    expect(res.body.tax_settings).toEqual(EMPTY);
  });

  it('refuses a tax id without a country and creates nothing', async () => {
    const slug = `notax-${alice.slug}`;
    const res = await call(base, 'POST', '/v1/organizations/', {
      token: alice.pat,
      body: { name: 'No Country', slug, tax_settings: { tax_id: 'DE123456788' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'tax_settings', 'tax_id'], msg: expect.stringMatching(/country/) }),
    ]);
    const list = await call(base, 'GET', `/v1/organizations/?slug=${slug}`, { token: alice.pat });
    expect(list.body.items).toEqual([]);
  });
});

describe('tax settings on PATCH', () => {
  it('updates only the keys given, validates the tax id against the country of the same request', async () => {
    const id = bob.organizationId;
    const first = await patch(id, { country: 'FR', tax_settings: { tax_id: 'FR61954506077' } }, bob.pat);
    expect(first.status).toBe(200);
    expect(first.body.tax_settings).toEqual({ ...EMPTY, tax_id: ['FR61954506077', 'eu_vat'] });

    const named = await patch(id, { tax_settings: { legal_name: 'Bob SARL', stripe_tax_enabled: true } }, bob.pat);
    expect(named.body.tax_settings).toEqual({
      ...EMPTY,
      legal_name: 'Bob SARL',
      tax_id: ['FR61954506077', 'eu_vat'],
      stripe_tax_enabled: true,
    });

    const registered = await patch(
      id,
      { tax_settings: { registrations: [{ country: 'AU', rate_basis_points: 1000, display_name: 'GST' }] } },
      bob.pat,
    );
    expect(registered.body.tax_settings.registrations).toEqual([
      { country: 'AU', state: null, rate_basis_points: 1000, display_name: 'GST' },
    ]);
    expect(registered.body.tax_settings.legal_name).toBe('Bob SARL');

    const cleared = await patch(id, { tax_settings: { tax_id: null, legal_name: null } }, bob.pat);
    expect(cleared.body.tax_settings).toEqual({
      ...EMPTY,
      registrations: registered.body.tax_settings.registrations,
      stripe_tax_enabled: true,
    });
    // With no tax id stored, the country may change freely.
    expect((await patch(id, { country: 'US' }, bob.pat)).body.country).toBe('US');
  });
});

describe('bad input: 422 at the exact loc, nothing stored', () => {
  let id: string;
  let before: unknown;
  beforeAll(async () => {
    const created = await call(base, 'POST', '/v1/organizations/', {
      token: alice.pat,
      body: {
        name: 'Strict Seller',
        slug: `strict-${alice.slug}`,
        country: 'DE',
        tax_settings: {
          tax_id: 'DE123456788',
          registrations: [{ country: 'GB', rate_basis_points: 2000, display_name: 'VAT' }],
        },
      },
    });
    id = created.body.id;
    before = created.body;
  });

  const cases: [string, unknown, (string | number)[]][] = [
    ['an unknown country', { country: 'XX' }, ['body', 'country']],
    ['a lower-case country', { country: 'de' }, ['body', 'country']],
    [
      'a legal address without country',
      { tax_settings: { legal_address: { city: 'Berlin' } } },
      ['body', 'tax_settings', 'legal_address', 'country'],
    ],
    [
      'a legal address in no country',
      { tax_settings: { legal_address: { country: 'ZZ' } } },
      ['body', 'tax_settings', 'legal_address', 'country'],
    ],
    [
      'a legal name over 256 characters',
      { tax_settings: { legal_name: 'x'.repeat(257) } },
      ['body', 'tax_settings', 'legal_name'],
    ],
    ['a malformed tax id', { tax_settings: { tax_id: 'D!' } }, ['body', 'tax_settings', 'tax_id']],
    ['a country its stored tax id does not fit', { country: 'AQ' }, ['body', 'country']],
    ['clearing the country under a stored tax id', { country: null }, ['body', 'country']],
    [
      'a state outside US/CA',
      {
        tax_settings: {
          registrations: [{ country: 'GB', state: 'ENG', rate_basis_points: 2000, display_name: 'VAT' }],
        },
      },
      ['body', 'tax_settings', 'registrations', 0, 'state'],
    ],
    [
      'an unknown US state',
      {
        tax_settings: { registrations: [{ country: 'US', state: 'XX', rate_basis_points: 500, display_name: 'Tax' }] },
      },
      ['body', 'tax_settings', 'registrations', 0, 'state'],
    ],
    [
      'a duplicate registration',
      {
        tax_settings: {
          registrations: [
            { country: 'US', state: 'CA', rate_basis_points: 725, display_name: 'CA' },
            { country: 'GB', rate_basis_points: 2000, display_name: 'VAT' },
            { country: 'US', state: 'US-CA', rate_basis_points: 700, display_name: 'CA again' },
          ],
        },
      },
      ['body', 'tax_settings', 'registrations', 2],
    ],
    [
      'a rate above 100 %',
      { tax_settings: { registrations: [{ country: 'GB', rate_basis_points: 10001, display_name: 'VAT' }] } },
      ['body', 'tax_settings', 'registrations', 0, 'rate_basis_points'],
    ],
    [
      'a fractional rate',
      { tax_settings: { registrations: [{ country: 'GB', rate_basis_points: 20.5, display_name: 'VAT' }] } },
      ['body', 'tax_settings', 'registrations', 0, 'rate_basis_points'],
    ],
    [
      'an empty display name',
      { tax_settings: { registrations: [{ country: 'GB', rate_basis_points: 2000, display_name: '' }] } },
      ['body', 'tax_settings', 'registrations', 0, 'display_name'],
    ],
    [
      'over 100 registrations',
      {
        tax_settings: {
          registrations: Array.from({ length: 101 }, (_, i) => ({
            country: 'GB',
            rate_basis_points: i,
            display_name: `VAT ${i}`,
          })),
        },
      },
      ['body', 'tax_settings', 'registrations'],
    ],
    [
      'a string for stripe_tax_enabled',
      { tax_settings: { stripe_tax_enabled: 'yes' } },
      ['body', 'tax_settings', 'stripe_tax_enabled'],
    ],
  ];

  it.each(cases)('refuses %s', async (_name, body, loc) => {
    const res = await patch(id, body);
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual(loc);
    expect((await get(id)).body).toEqual(before);
  });

  it('answers every bad setting of one request together', async () => {
    const res = await patch(id, {
      default_tax_behavior: 'exclusive',
      tax_settings: {
        tax_id: '!!',
        registrations: [{ country: 'FR', state: 'IDF', rate_basis_points: 0, display_name: 'x' }],
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((d: { loc: unknown }) => d.loc)).toEqual([
      ['body', 'tax_settings', 'tax_id'],
      ['body', 'tax_settings', 'registrations', 0, 'state'],
    ]);
    expect((await get(id)).body).toEqual(before);
  });
});

describe('POST /graphql', () => {
  const gql = (query: string, variables?: Record<string, unknown>) =>
    call(base, 'POST', '/graphql', { token: alice.oat, body: { query, variables } });

  it('reads and writes the same settings, with the same rules', async () => {
    const write = await gql(
      `mutation($id: ID!) { updateOrganization(id: $id, input: {
         country: "AT", taxSettings: { legalName: "Alice GmbH", taxId: "ATU12345675",
           legalAddress: { line1: "Ring 1", postalCode: "1010", city: "Wien", country: "AT" },
           registrations: [{ country: "CA", state: "QC", rateBasisPoints: 997, displayName: "QST" }] } }) { id } }`,
      { id: alice.organizationId },
    );
    expect(write.body.errors).toBeUndefined();
    const read = await gql(
      `query($id: ID!) { organization(id: $id) { country taxSettings { legalName taxId stripeTaxEnabled
         legalAddress { line1 line2 postalCode city state country }
         registrations { country state rateBasisPoints displayName } } } }`,
      { id: alice.organizationId },
    );
    expect(read.body.data.organization).toEqual({
      country: 'AT',
      taxSettings: {
        legalName: 'Alice GmbH',
        taxId: ['ATU12345675', 'eu_vat'],
        stripeTaxEnabled: false,
        legalAddress: { line1: 'Ring 1', line2: null, postalCode: '1010', city: 'Wien', state: null, country: 'AT' },
        registrations: [{ country: 'CA', state: 'QC', rateBasisPoints: 997, displayName: 'QST' }],
      },
    });
    const refused = await gql(
      'mutation($id: ID!) { updateOrganization(id: $id, input: { taxSettings: { registrations: [{ country: "DE", state: "BY", rateBasisPoints: 1900, displayName: "MwSt" }] } }) { id } }',
      { id: alice.organizationId },
    );
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'PolarRequestValidationError',
      http: { status: 422 },
    });
    expect(JSON.stringify(refused.body.errors[0].extensions)).toContain('"state"');
    const after = await gql('query($id: ID!) { organization(id: $id) { taxSettings { registrations { state } } } }', {
      id: alice.organizationId,
    });
    expect(after.body.data.organization.taxSettings.registrations).toEqual([{ state: 'QC' }]);
  });
});

describe('/openapi.json', () => {
  it('describes tax_settings on create, update and the organization, as beyond Polar', async () => {
    const document = (await call(base, 'GET', '/openapi.json')).body;
    const schemaOf = (path: string, method: string) => {
      const operation = document.paths[path][method];
      return {
        body: operation.requestBody?.content['application/json'].schema,
        response: operation.responses[method === 'post' ? '201' : '200'].content['application/json'].schema,
      };
    };
    const create = schemaOf('/v1/organizations/', 'post');
    const update = schemaOf('/v1/organizations/{id}', 'patch');
    for (const body of [create.body, update.body]) {
      const settings = body.properties.tax_settings.anyOf[0];
      expect(settings.description).toMatch(/Beyond Polar/);
      expect(Object.keys(settings.properties)).toEqual([
        'legal_name',
        'legal_address',
        'tax_id',
        'registrations',
        'stripe_tax_enabled',
      ]);
      expect(settings.properties.registrations.maxItems).toBe(100);
    }
    expect(create.response.required).toContain('tax_settings');
    expect(create.response.properties.tax_settings.description).toMatch(/Beyond Polar/);
    expect(update.response.properties.tax_settings.required).toContain('registrations');
  });
});
