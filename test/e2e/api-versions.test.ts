import { createPolar as createPolar2026_04 } from '@polar-sh/sdk-1/2026-04';
import { createPolar as createPolar2026_10 } from '@polar-sh/sdk-1/2026-10';
import { createPolar as createPolar2027_01 } from '@polar-sh/sdk-1/2027-01';
import { API_VERSIONS, DEFAULT_API_VERSION, VERSIONED_FIELDS } from '../../rest-adapter/v1/versions/api-versions.js';
import { benefitHelpers } from '../support/benefits.js';
import { call, createTenant, type Tenant, type TestStack } from '../support/stack.js';
import { sharedTestStack } from '../support/shared-stack.js';
import { issueKey } from './support/license-keys.js';

/**
 * API versions (docs/api-versions.md) through the public HTTP face: the `Polar-Version` header, the
 * 404 of an unknown one, license keys shaped per version (through SDK 1.0.1's clients and raw HTTP),
 * and each version's OpenAPI document.
 */
let stack: TestStack;
let owner: Tenant;
let base: string;
const { api, benefit, product, sell, settle } = benefitHelpers(() => ({ stack, owner, base }));

/** A key issued by a subscription's benefit grant, and one whose grant names nothing this service knows. */
let sold: { key: string; id: string; subscriptionId: string; customerId: string };
let bare: { key: string; id: string };

beforeAll(async () => {
  stack = await sharedTestStack();
  base = stack.sandbox.baseUrl;
  owner = await createTenant(stack.sandbox);
  const licence = await benefit({
    type: 'license_keys',
    description: 'Desktop licence',
    properties: { activations: { limit: 5, enable_customer_admin: false } },
  });
  const productId = await product({ name: 'Pro monthly' });
  expect((await api('POST', `/v1/products/${productId}/benefits`, { benefits: [licence.id] })).status).toBe(200);
  const order = await sell(productId, 'versions@example.com');
  const keys = await settle(
    () => api('GET', `/v1/license-keys/?benefit_id=${licence.id}`),
    res => res.body.items?.length === 1,
  );
  const [key] = keys.body.items;
  sold = { key: key.key, id: key.id, subscriptionId: order.subscription_id, customerId: order.customer_id };
  const issued = await issueKey(stack.sandbox, owner, {});
  bare = { key: issued.key, id: issued.id };
});

const versioned = (version: string | undefined, path: string, token: string | undefined = owner.oat) =>
  call(base, 'GET', path, { token, headers: version === undefined ? {} : { 'polar-version': version } });

describe('the Polar-Version header', () => {
  it('accepts each version and echoes it; without it, the default', async () => {
    for (const version of API_VERSIONS) {
      const res = await versioned(version, '/v1/license-keys/');
      expect(res.status).toBe(200);
      expect(res.headers.get('polar-version')).toBe(version);
    }
    const absent = await versioned(undefined, '/v1/license-keys/');
    expect(absent.status).toBe(200);
    expect(absent.headers.get('polar-version')).toBe(DEFAULT_API_VERSION);
    expect(DEFAULT_API_VERSION).toBe('2026-04');
  });

  it('echoes the version on 401 and 404 answers too', async () => {
    const badToken = await versioned('2026-10', '/v1/license-keys/', 'polar_oat_nope');
    expect(badToken.status).toBe(401);
    expect(badToken.headers.get('polar-version')).toBe('2026-10');
    const missing = await versioned('2027-01', '/v1/no-such-thing/');
    expect(missing).toMatchObject({ status: 404, body: { detail: 'Not Found' } });
    expect(missing.headers.get('polar-version')).toBe('2027-01');
    expect(missing.headers.get('polar-supported-versions')).toBeNull();
  });

  it('answers an unknown or malformed version 404 with the supported ones, on every path and whatever the token', async () => {
    for (const version of ['1999-01', '2026-4', 'latest', '', '2026-04, 2026-10']) {
      for (const [path, token] of [
        ['/v1/license-keys/', owner.oat],
        ['/v1/no-such-thing/', owner.oat],
        ['/v1/license-keys/', 'polar_oat_nope'],
        ['/openapi.json', undefined],
        ['/healthz', undefined],
      ] as const) {
        const res = await versioned(version, path, token);
        expect({ version, path, status: res.status, body: res.body }).toEqual({
          version,
          path,
          status: 404,
          body: { detail: 'Not Found' },
        });
        expect(res.headers.get('polar-supported-versions')).toBe('2026-04, 2026-10, 2027-01');
        expect(res.headers.get('polar-version')).toBeNull();
      }
    }
  });

  it('lets a browser send Polar-Version and Polar-Organization and read the version headers', async () => {
    const res = await fetch(`${base}/v1/license-keys/`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-headers': 'polar-version, polar-organization' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-headers')).toContain('Polar-Version');
    expect(res.headers.get('access-control-allow-headers')).toContain('Polar-Organization');
    const exposed = await versioned('1999-01', '/v1/license-keys/');
    expect(exposed.headers.get('access-control-expose-headers')).toContain('Polar-Version');
    expect(exposed.headers.get('access-control-expose-headers')).toContain('Polar-Supported-Versions');
  });
});

const MEMBER = ['member_id', 'member'];
const GRANTED_BY = ['subscription_id', 'subscription', 'order_id', 'order'];

describe('license keys per version', () => {
  it('a read has member_id and member (null) from 2026-10 on, never what granted it', async () => {
    for (const [version, hasMember] of [
      ['2026-04', false],
      ['2026-10', true],
      ['2027-01', true],
    ] as const) {
      const list = await versioned(version, '/v1/license-keys/');
      const got = await versioned(version, `/v1/license-keys/${sold.id}`);
      for (const body of [list.body.items[0], got.body]) {
        for (const field of MEMBER) expect([version, field, field in body]).toEqual([version, field, hasMember]);
        for (const field of GRANTED_BY) expect([version, field, field in body]).toEqual([version, field, false]);
        if (hasMember) expect(body).toMatchObject({ member_id: null, member: null });
      }
    }
  });

  it('SDK 1.0.1: validate and activate carry the granting subscription in 2027-01 only', async () => {
    const clients = {
      '2026-04': createPolar2026_04({ accessToken: owner.oat, baseUrl: base }),
      '2026-10': createPolar2026_10({ accessToken: owner.oat, baseUrl: base }),
      '2027-01': createPolar2027_01({ accessToken: owner.oat, baseUrl: base }),
    };
    const body = { key: sold.key, organization_id: owner.organizationId };
    const old = await clients['2026-04'].licenseKeys.validate(body);
    for (const field of [...MEMBER, ...GRANTED_BY]) expect(old).not.toHaveProperty(field);
    const middle = await clients['2026-10'].licenseKeys.validate(body);
    expect(middle).toMatchObject({ member_id: null, member: null });
    for (const field of GRANTED_BY) expect(middle).not.toHaveProperty(field);

    const validated = await clients['2027-01'].licenseKeys.validate(body);
    expect(validated).toMatchObject({
      id: sold.id,
      member_id: null,
      member: null,
      subscription_id: sold.subscriptionId,
      order_id: null,
      order: null,
    });
    expect(validated.subscription).toEqual({
      id: sold.subscriptionId,
      status: 'active',
      current_period_start: expect.stringMatching(/Z$/),
      current_period_end: expect.stringMatching(/Z$/),
      cancel_at_period_end: false,
      ends_at: null,
    });

    const activated = await clients['2027-01'].licenseKeys.activate({ ...body, label: 'laptop' });
    expect(activated.license_key).toMatchObject({ id: sold.id, subscription_id: sold.subscriptionId, order: null });
    expect(activated.license_key.subscription?.id).toBe(sold.subscriptionId);
    const activatedOld = await clients['2026-04'].licenseKeys.activate({ ...body, label: 'desktop' });
    for (const field of [...MEMBER, ...GRANTED_BY]) expect(activatedOld.license_key).not.toHaveProperty(field);
    const activatedMiddle = await clients['2026-10'].licenseKeys.activate({ ...body, label: 'tablet' });
    expect(activatedMiddle.license_key).toMatchObject({ member_id: null, member: null });
    for (const field of GRANTED_BY) expect(activatedMiddle.license_key).not.toHaveProperty(field);

    // The activation read back is a LicenseKeyActivationRead: its key is a LicenseKeyRead in every version.
    const readBack = await clients['2027-01'].licenseKeys.getActivation(sold.id, activated.id);
    expect(readBack.license_key).toMatchObject({ member_id: null, member: null });
    for (const field of GRANTED_BY) expect(readBack.license_key).not.toHaveProperty(field);
  });

  it('raw HTTP, the portal: a key no known grant issued has null granting fields in 2027-01', async () => {
    const body = { key: bare.key, organization_id: owner.organizationId };
    const portal = (version: string) =>
      call(base, 'POST', '/v1/customer-portal/license-keys/validate', { body, headers: { 'polar-version': version } });
    const newest = await portal('2027-01');
    expect(newest.status).toBe(200);
    expect(newest.headers.get('polar-version')).toBe('2027-01');
    expect(newest.body).toMatchObject({
      id: bare.id,
      member_id: null,
      member: null,
      subscription_id: null,
      subscription: null,
      order_id: null,
      order: null,
      activation: null,
    });
    const oldest = await portal('2026-04');
    expect(oldest.status).toBe(200);
    for (const field of [...MEMBER, ...GRANTED_BY]) expect(oldest.body).not.toHaveProperty(field);
  });
});

/** The success body schema of an operation, by operation id. */
function successSchema(document: any, operationId: string): any {
  for (const item of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(item)) {
      if (operation?.operationId !== operationId) continue;
      return operation.responses['200'].content['application/json'].schema;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** A schema's `properties` at a body path, through nullable branches. */
function propertiesAt(schema: any, path: string[]): string[] {
  if (schema.anyOf) return schema.anyOf.flatMap((s: any) => propertiesAt(s, path));
  if (path.length === 0) return Object.keys(schema.properties ?? {});
  const [step, ...rest] = path;
  return propertiesAt(step === '[]' ? schema.items : schema.properties[step], rest);
}

describe('OpenAPI per version', () => {
  it('serves each version at /<version>/openapi.json, and the default at /openapi.json', async () => {
    const documents: Record<string, any> = {};
    for (const version of API_VERSIONS) {
      const res = await versioned(undefined, `/${version}/openapi.json`, undefined);
      expect(res.status).toBe(200);
      expect(res.body.info.version).toBe(version);
      documents[version] = res.body;
    }
    const unversioned = await versioned(undefined, '/openapi.json', undefined);
    expect(unversioned.body).toEqual(documents[DEFAULT_API_VERSION]);
    expect(unversioned.body.info.description).toContain('2026-04, 2026-10, 2027-01');
    expect((await versioned(undefined, '/1999-01/openapi.json', undefined)).status).toBe(404);

    // The documents differ by exactly the declared fields, where they are declared.
    for (const declared of VERSIONED_FIELDS) {
      for (const [operationId, paths] of Object.entries(declared.at)) {
        for (const path of paths) {
          for (const version of API_VERSIONS) {
            const present = propertiesAt(successSchema(documents[version], operationId), path);
            const expected = API_VERSIONS.indexOf(version) >= API_VERSIONS.indexOf(declared.since!);
            for (const field of declared.fields)
              expect([version, operationId, field, present.includes(field)]).toEqual([
                version,
                operationId,
                field,
                expected,
              ]);
          }
        }
      }
    }
    const strip = (document: any) => {
      const copy = structuredClone(document);
      delete copy.info.version;
      for (const declared of VERSIONED_FIELDS)
        for (const operationId of Object.keys(declared.at)) {
          const item = Object.values<any>(copy.paths).find(i =>
            Object.values<any>(i).some(o => o?.operationId === operationId),
          );
          for (const operation of Object.values<any>(item))
            if (operation?.operationId === operationId) delete operation.responses['200'];
        }
      return copy;
    };
    expect(strip(documents['2026-10'])).toEqual(strip(documents['2026-04']));
    expect(strip(documents['2027-01'])).toEqual(strip(documents['2026-04']));
  });
});
