import { z } from 'zod';
import { toInput, toWire } from './common.js';
import { addressInput, customerPortalCustomerResponse } from './customers.schemas.js';
import type { Route } from './route.js';
import {
  CUSTOMER_NAME_MAX_LENGTH,
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
} from '../../subgraphs/billing/contract.js';

/** Polar's CustomerPortalCustomerUpdate (`default_payment_method_id` arrives with the portal's payment methods). */
const customerPortalCustomerUpdate = z.object({
  billing_name: z.string().max(CUSTOMER_NAME_MAX_LENGTH).nullish(),
  billing_address: addressInput.nullish(),
  tax_id: z.string().max(64).nullish(),
});

/** The Customer Portal API: a customer session token (`polar_cst_`) and nothing else. */

export const customerPortalCustomerRoutes: Route[] = [
  {
    operationId: 'customer_portal:customers:get',
    method: 'get',
    path: '/v1/customer-portal/customers/me',
    summary: 'Get the authenticated customer',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    operation: 'CustomerPortalCustomersGet',
    variables: () => ({}),
    result: data => toWire(data.customerPortalMe),
    status: 200,
    response: customerPortalCustomerResponse,
  },
  {
    operationId: 'customer_portal:customers:update',
    method: 'patch',
    path: '/v1/customer-portal/customers/me',
    summary: 'Update the authenticated customer',
    description:
      "The customer's billing name, billing address and tax id. An empty string clears the name or tax id; a billing address cannot be reset to null once set (422).",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    body: customerPortalCustomerUpdate,
    operation: 'CustomerPortalCustomersUpdate',
    variables: ({ body }) => {
      const b = body as z.output<typeof customerPortalCustomerUpdate>;
      return {
        input: {
          billingName: b.billing_name ?? null,
          billingAddress: b.billing_address ? toInput(b.billing_address) : null,
          billingAddressNull: b.billing_address === null ? true : null,
          ...(b.tax_id !== undefined ? { taxId: b.tax_id || null } : {}),
        },
      };
    },
    result: data => toWire(data.customerPortalUpdateMe),
    status: 200,
    response: customerPortalCustomerResponse,
  },
];
