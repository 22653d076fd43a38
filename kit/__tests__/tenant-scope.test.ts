import 'reflect-metadata';
import { numbered } from '../database/read/read-model.js';
import {
  actingFor,
  CORE_READERS,
  downScope,
  narrowScope,
  PORTAL_READERS,
  scopedOrganizationIds,
  soleOrganization,
  tenantScope,
} from '../database/tenant-scope.js';
import { NotPermitted } from '../errors.js';
import { ANONYMOUS, type Principal } from '../principal.js';
import { targetOrganization } from '../target-organization.js';

const ORG_A = '2b1c1f0e-6a52-4d77-9a4e-3f8f2f0d9b11';
const ORG_B = '7d0c4c55-37f8-4a4e-9b53-0a2f7e1c3d20';
const CUSTOMER = 'a1c7a1f2-9c3e-4d1b-8f55-2c6b0e4d7a90';

const principal = (
  subject: Principal['subject'],
  organizationIds: string[],
  subjectId: string | null = ORG_A,
): Principal => ({
  subject,
  subjectId,
  credential: subject === 'customer' ? 'customer_session' : 'organization_access_token',
  scopes: [],
  organizationIds,
  tokenId: 't',
});

describe('the tenant rule', () => {
  it('gives people and organization tokens their organizations on Core API resources', () => {
    expect(tenantScope(principal('user', [ORG_A, ORG_B]), CORE_READERS)).toEqual({
      organizationIds: [ORG_A, ORG_B],
      customerId: null,
    });
    expect(tenantScope(principal('organization', [ORG_A]), CORE_READERS)).toEqual({
      organizationIds: [ORG_A],
      customerId: null,
    });
  });

  it('narrows a customer session to its own customer, and only where customers read', () => {
    const customer = principal('customer', [ORG_A], CUSTOMER);
    expect(tenantScope(customer, [...CORE_READERS, ...PORTAL_READERS])).toEqual({
      organizationIds: [ORG_A],
      customerId: CUSTOMER,
    });
    // Products and discounts are Core API resources: a customer session reads none of them directly.
    expect(tenantScope(customer, CORE_READERS)).toBeNull();
  });

  it('gives nothing to anonymous callers, to principals without organizations, or to other subjects', () => {
    expect(tenantScope(ANONYMOUS, CORE_READERS)).toBeNull();
    expect(tenantScope(principal('user', []), CORE_READERS)).toBeNull();
    expect(tenantScope(principal('organization', [ORG_A]), PORTAL_READERS)).toBeNull();
  });

  it('narrows to the requested organizations, and to nothing when none is readable', () => {
    const scope = tenantScope(principal('user', [ORG_A, ORG_B]), CORE_READERS);
    expect(narrowScope(scope, [ORG_B])).toEqual({ organizationIds: [ORG_B], customerId: null });
    expect(narrowScope(scope, ['00000000-0000-4000-8000-000000000000'])).toBeNull();
    expect(narrowScope(scope, undefined)).toBe(scope);
  });
});

describe('Polar-Organization (docs/principals.md#polar-organization)', () => {
  const USER = 'c0ffee00-0000-4000-8000-000000000001';
  const member = { ...principal('user', [ORG_A, ORG_B], USER), credential: 'personal_access_token' as const };

  it('narrows a user to the named organization: scope, sole organization, down-scope', () => {
    const acting = actingFor(member, ORG_B);
    expect(tenantScope(acting, CORE_READERS)).toEqual({ organizationIds: [ORG_B], customerId: null });
    expect(scopedOrganizationIds(acting, CORE_READERS, [ORG_A])).toEqual([]);
    expect(soleOrganization(acting)).toBe(ORG_B);
    expect(downScope(acting)).toEqual([ORG_B]);
    expect(soleOrganization(member)).toBeNull();
    expect(downScope(member)).toBeNull();
    expect(acting.scopes).toBe(member.scopes); // the expanded-scope cache is keyed by the array
  });

  it('refuses an organization the user cannot act for, and another organization for an organization token', () => {
    expect(() => actingFor(member, CUSTOMER)).toThrow(NotPermitted);
    const token = principal('organization', [ORG_A]);
    expect(actingFor(token, ORG_A)).toBe(token);
    expect(() => actingFor(token, ORG_B)).toThrow(NotPermitted);
  });

  it('leaves customer sessions and anonymous callers as they are', () => {
    const customer = principal('customer', [ORG_A], CUSTOMER);
    expect(actingFor(customer, ORG_B)).toBe(customer);
    expect(actingFor(ANONYMOUS, ORG_B)).toBe(ANONYMOUS);
  });

  it('creates in the named organization, and refuses a body naming another', async () => {
    const acting = actingFor(member, ORG_B);
    await expect(targetOrganization(acting, null)).resolves.toBe(ORG_B);
    await expect(targetOrganization(acting, ORG_B)).resolves.toBe(ORG_B);
    await expect(targetOrganization(acting, ORG_A)).rejects.toMatchObject({
      status: 422,
      details: [{ loc: ['body', 'organization_id'], input: ORG_A }],
    });
  });
});

describe('statement text', () => {
  it('numbers placeholders in order', () => {
    expect(numbered('select 1 where a = any(?) and b = ? limit ? offset ?')).toBe(
      'select 1 where a = any($1) and b = $2 limit $3 offset $4',
    );
  });
});
