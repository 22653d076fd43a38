import 'reflect-metadata';
import { numbered } from '../database/read/read-model.js';
import { CORE_READERS, narrowScope, PORTAL_READERS, tenantScope } from '../database/tenant-scope.js';
import { ANONYMOUS, type Principal } from '../principal.js';

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

describe('statement text', () => {
  it('numbers placeholders in order', () => {
    expect(numbered('select 1 where a = any(?) and b = ? limit ? offset ?')).toBe(
      'select 1 where a = any($1) and b = $2 limit $3 offset $4',
    );
  });
});
