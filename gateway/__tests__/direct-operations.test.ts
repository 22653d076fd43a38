// The REST adapter's single-subgraph operations run on the subgraph directly in the embedded topology
// (gateway/direct-operations.ts). Each must answer exactly what the gateway answers: same data, same
// error code, status and details.
import { readSupergraph } from '../gateway.js';
import { DirectOperations } from '../direct-operations.js';
import { InProcessGatewayClient, type GraphQLResult } from '../../rest-adapter/upstream/gateway-client.js';
import { OperationDocuments } from '../../rest-adapter/v1/operations.js';
import type { Principal } from '../../kit/principal.js';
import { createTenant, startTestStack, type Tenant, type TestStack } from '../../test/support/stack.js';

let stack: TestStack;
let tenant: Tenant;
let other: Tenant;
let direct: DirectOperations;
let viaGateway: InProcessGatewayClient;
let viaDirect: InProcessGatewayClient;
const documents = new OperationDocuments();

beforeAll(async () => {
  stack = await startTestStack('direct_operations');
  tenant = await createTenant(stack.production);
  other = await createTenant(stack.production);
  const { environment } = stack.production;
  direct = new DirectOperations(
    readSupergraph(),
    [environment.identity, environment.billing, environment.webhooks],
    documents.names().map(name => ({ source: documents.source(name), operationName: name })),
  );
  viaGateway = new InProcessGatewayClient(environment.gateway);
  viaDirect = new InProcessGatewayClient(environment.gateway, direct);
});

afterAll(async () => {
  await stack?.close();
});

const principal = (token: string): Promise<Principal> =>
  stack.production.environment.identity.principals.resolve(`Bearer ${token}`);

/** What the REST adapter reads from a result: the data, and of each error its code, status, details and message. */
function observable(result: GraphQLResult) {
  return {
    data: result.data ?? null,
    errors: result.errors?.map(e => ({
      message: e.message,
      code: e.extensions?.code,
      status: e.extensions?.http?.status,
      details: e.extensions?.details,
    })),
  };
}

async function both(name: string, variables: Record<string, unknown>, token: string) {
  const request = { query: documents.source(name), operationName: name, variables };
  const who = await principal(token);
  return {
    gateway: observable(await viaGateway.execute(request, who, 'test-gateway')),
    direct: observable(await viaDirect.execute(request, who, 'test-direct')),
  };
}

describe('DirectOperations', () => {
  it('takes every REST operation planned as one fetch from one in-process subgraph', () => {
    // The Customer Portal's subscriptions embed `product.organization` (Polar's CustomerOrganization),
    // resolved by identity: two fetches, so they go through the gateway.
    const viaGatewayOnly = [
      'CustomerPortalSubscriptionsCancel',
      'CustomerPortalSubscriptionsGet',
      'CustomerPortalSubscriptionsList',
      'CustomerPortalSubscriptionsUpdate',
      // The subscriptions a seat holder claimed are the portal's subscriptions: identity again.
      'CustomerPortalSeatsClaimedSubscriptions',
      // The checkout client endpoints embed CheckoutOrganization, the portal's orders their product's
      // CustomerOrganization: identity again.
      'CheckoutsClientConfirm',
      'CheckoutsClientGet',
      'CheckoutsClientUpdate',
      'CustomerPortalOrdersGet',
      'CustomerPortalOrdersList',
      'CustomerPortalOrdersUpdate',
      // An invoice names its seller: billing `@requires` the organization's name from identity.
      'OrdersGenerateInvoice',
      'CustomerPortalOrdersGenerateInvoice',
      // A receipt names its seller the same way.
      'ReceiptFile',
      // The public seller profile with its products: identity's organization, billing's products.
      'CustomerPortalOrganizationsGet',
      // A portal grant's benefit names its seller (BenefitSubscriberOrganization), from identity.
      'CustomerPortalBenefitGrantsGet',
      'CustomerPortalBenefitGrantsList',
      'CustomerPortalBenefitGrantsUpdate',
    ];
    expect(direct.names().sort()).toEqual(
      documents
        .names()
        .filter(name => !viaGatewayOnly.includes(name))
        .sort(),
    );
  });

  it('answers reads exactly as the gateway does', async () => {
    for (const [name, variables, token] of [
      ['OrganizationsList', { slug: null, page: 1, limit: 10, sorting: ['created_at'] }, tenant.pat],
      ['OrganizationsList', { slug: tenant.slug, page: 1, limit: 10, sorting: ['-name'] }, tenant.oat],
      ['OrganizationsGet', { id: tenant.organizationId }, tenant.pat],
      ['OrganizationAccessTokensList', { organizationId: tenant.organizationId, page: 1, limit: 10 }, tenant.pat],
    ] as const) {
      const { gateway, direct: shortcut } = await both(name, variables, token);
      expect(gateway.errors).toBeUndefined();
      expect(shortcut).toEqual(gateway);
    }
  });

  it('answers errors exactly as the gateway does', async () => {
    for (const [name, variables, token] of [
      ['OrganizationsGet', { id: other.organizationId }, tenant.pat], // another tenant: 404
      ['OrganizationsList', { slug: null, page: 1, limit: 10, sorting: ['bogus'] }, tenant.pat], // 422 with details
      ['OrganizationsUpdate', { id: tenant.organizationId, input: { name: 'x' } }, tenant.pat], // service validation
      ['OrganizationsCreate', { input: { name: 'Nope', slug: 'nope-org' } }, tenant.oat], // wrong subject: 401
    ] as const) {
      const { gateway, direct: shortcut } = await both(name, variables, token);
      expect(gateway.errors?.length).toBeGreaterThan(0);
      expect(shortcut).toEqual(gateway);
    }
  });
});
