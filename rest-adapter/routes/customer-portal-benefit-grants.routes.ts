import { z } from 'zod';
import { BENEFIT_TYPES, benefitGrantWire, CUSTOMER_PORTAL_READ } from '../../subgraphs/billing/contract.js';
import { benefitGrantResponse } from './benefits.schemas.js';
import { listOf, pageQuery, sortingQuery, toWire } from './common.js';
import { customerPortalCustomerResponse } from './customers.schemas.js';
import type { Route } from './route.js';

type Wire = Record<string, any>;

/**
 * Polar's CustomerBenefitGrant: the grant, its benefit, and the customer as the portal shows it
 * (CustomerPortalCustomer: no metadata or external id; no OAuth accounts are linked here, so `{}`).
 */
function customerBenefitGrantWire(grant: object): Wire {
  const wire = benefitGrantWire(grant) as Wire;
  return { ...wire, customer: { ...(wire.customer as Wire), oauth_accounts: {} } };
}

const customerBenefitGrantResponse = benefitGrantResponse.extend({ customer: customerPortalCustomerResponse });

/** A customer session (`polar_cst_`) only: the customer's own grants. */
export const customerPortalBenefitGrantRoutes: Route[] = [
  {
    operationId: 'customer_portal:benefit-grants:list',
    method: 'get',
    path: '/v1/customer-portal/benefit-grants/',
    summary: "List the customer's benefit grants",
    description:
      "The customer's grants with their benefit, revoked ones included (`is_granted`, `is_revoked`). A license key's grant names its key in `properties` (`license_key_id`, `display_key`); the files of a downloadables grant are listed with signed links by `GET /v1/customer-portal/downloadables/`.",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({
      type: z.array(z.enum(BENEFIT_TYPES)).optional(),
      benefit_id: z.array(z.uuid()).optional(),
      order_id: z.array(z.uuid()).optional(),
      subscription_id: z.array(z.uuid()).optional(),
      ...pageQuery,
      sorting: sortingQuery(['granted_at'], ['-granted_at']),
    }),
    operation: 'CustomerPortalBenefitGrantsList',
    variables: ({ query }) => ({
      type: query.type ?? null,
      benefitId: query.benefit_id ?? null,
      orderId: query.order_id ?? null,
      subscriptionId: query.subscription_id ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({
      items: data.customerPortalBenefitGrants.items.map(customerBenefitGrantWire),
      pagination: toWire(data.customerPortalBenefitGrants.pagination),
    }),
    status: 200,
    response: listOf(customerBenefitGrantResponse),
  },
];
