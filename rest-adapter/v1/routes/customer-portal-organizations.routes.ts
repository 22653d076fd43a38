import { z } from 'zod';
import { CUSTOMER_PORTAL_PUBLIC, customerOrganizationWire, priceWire } from '../../../subgraphs/billing/contract.js';
import { toWire } from './common.js';
import type { Route } from './route.js';

type Wire = Record<string, any>;

/**
 * Polar's public `GET /v1/customer-portal/organizations/{slug}` (CustomerOrganizationData): the seller's
 * CustomerOrganization and its public, live products (CustomerProduct: no metadata). No credential.
 */
export const customerPortalOrganizationRoutes: Route[] = [
  {
    operationId: 'customer_portal:organizations:get',
    method: 'get',
    path: '/v1/customer-portal/organizations/{slug}',
    summary: "Get a customer portal's organization",
    description:
      'The seller by its slug, with its customer portal settings and its public products. Unknown slug: 404.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_PUBLIC,
    params: z.object({ slug: z.string().min(1).max(64) }),
    operation: 'CustomerPortalOrganizationsGet',
    variables: ({ params }) => ({ slug: params.slug }),
    result: data => {
      const wire = toWire<Wire>(data.customerPortalOrganization);
      return {
        organization: customerOrganizationWire(wire.organization),
        products: (wire.products ?? []).map((p: Wire) => ({ ...p, prices: (p.prices ?? []).map(priceWire) })),
      };
    },
    status: 200,
    response: z.object({
      organization: z.record(z.string(), z.unknown()),
      products: z.array(z.record(z.string(), z.unknown())),
    }),
    errors: [404],
  },
];
