import { toWire } from './common.js';
import { customerPortalCustomerResponse } from './customers.schemas.js';
import type { Route } from './route.js';
import { CUSTOMER_PORTAL_READ } from '../../subgraphs/billing/contract.js';

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
];
