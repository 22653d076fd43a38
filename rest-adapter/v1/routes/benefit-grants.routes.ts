import { z } from 'zod';
import {
  BENEFIT_GRANT_DEFAULT_SORTING,
  BENEFIT_GRANT_SORT_KEYS,
  BENEFITS_READ,
  BENEFIT_TYPES,
  benefitGrantWire,
  benefitWire,
  CUSTOMERS_READ,
  customerStateWire,
  USER_BENEFITS_READ,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toWire } from './common.js';
import { benefitGrantResponse, benefitResponse, customerStateResponse } from './benefits.schemas.js';
import type { BenefitGrantsListResult } from '../operation-results/benefits.generated.js';
import type { Route } from './route.js';

const bool = z
  .enum(['true', 'false'])
  .transform(v => v === 'true')
  .optional();

/** Both grant lists run the same operation: the route table's and the benefit's own. */
const grantList = (data: BenefitGrantsListResult) => ({
  items: data.benefitGrants.items.map(benefitGrantWire),
  pagination: toWire(data.benefitGrants.pagination),
});

/** Grants (`/v1/benefit-grants/`, `/v1/benefits/{id}/grants`), customer state, and the user's benefits. */
export const benefitGrantRoutes: Route[] = [
  {
    operationId: 'benefit-grants:list',
    method: 'get',
    path: '/v1/benefit-grants/',
    summary: 'List benefit grants',
    tag: 'benefit-grants',
    access: BENEFITS_READ,
    query: z.object({
      organization_id: z.array(z.uuid()).optional(),
      customer_id: z.array(z.uuid()).optional(),
      external_customer_id: z.array(z.string()).optional(),
      is_granted: bool,
      ...pageQuery,
      sorting: sortingQuery(BENEFIT_GRANT_SORT_KEYS, BENEFIT_GRANT_DEFAULT_SORTING),
    }),
    operation: 'BenefitGrantsList',
    variables: ({ query }) => ({
      organizationId: query.organization_id ?? null,
      customerId: query.customer_id ?? null,
      externalCustomerId: query.external_customer_id ?? null,
      isGranted: query.is_granted ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: grantList,
    status: 200,
    response: listOf(benefitGrantResponse),
  },
  {
    operationId: 'benefits:grants',
    method: 'get',
    path: '/v1/benefits/{id}/grants',
    summary: 'List the grants of a benefit',
    tag: 'benefits',
    access: BENEFITS_READ,
    params: idParams,
    query: z.object({
      is_granted: bool,
      customer_id: z.array(z.uuid()).optional(),
      ...pageQuery,
    }),
    operation: 'BenefitGrantsList',
    variables: ({ params, query }) => ({
      benefitId: params.id,
      customerId: query.customer_id ?? null,
      isGranted: query.is_granted ?? null,
      page: query.page,
      limit: query.limit,
    }),
    result: grantList,
    status: 200,
    response: listOf(benefitGrantResponse),
    errors: [404],
  },
  {
    operationId: 'customers:get_state',
    method: 'get',
    path: '/v1/customers/{id}/state',
    summary: 'Get customer state',
    description:
      'The customer with its active subscriptions and the benefits it holds (each with the benefit metadata).',
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: idParams,
    operation: 'CustomersState',
    variables: ({ params }) => ({ id: params.id }),
    result: data => customerStateWire(data.customerState),
    status: 200,
    response: customerStateResponse,
    errors: [404],
  },
  {
    operationId: 'customers:get_state_external',
    method: 'get',
    path: '/v1/customers/external/{external_id}/state',
    summary: 'Get customer state by external id',
    tag: 'customers',
    access: CUSTOMERS_READ,
    params: z.object({ external_id: z.string() }),
    operation: 'CustomersState',
    variables: ({ params }) => ({ externalId: params.external_id }),
    result: data => customerStateWire(data.customerState),
    status: 200,
    response: customerStateResponse,
    errors: [404],
  },
  ...userBenefitRoutes(),
];

function userBenefitRoutes(): Route[] {
  const description =
    'Benefits the signed-in user holds as a customer (matched by e-mail) in any organization. Personal access tokens and OAuth user tokens only: organization tokens get 401.';
  const query = z.object({
    type: z.array(z.enum(BENEFIT_TYPES)).optional(),
    organization_id: z.array(z.uuid()).optional(),
    order_id: z.array(z.uuid()).optional(),
    subscription_id: z.array(z.uuid()).optional(),
    ...pageQuery,
  });
  const list = (path: string, operationId: string): Route => ({
    operationId,
    method: 'get',
    path,
    summary: "List the user's benefits",
    description,
    tag: 'users',
    access: USER_BENEFITS_READ,
    query,
    operation: 'UsersBenefitsList',
    variables: ({ query: q }) => ({
      type: q.type ?? null,
      organizationId: q.organization_id ?? null,
      orderId: q.order_id ?? null,
      subscriptionId: q.subscription_id ?? null,
      page: q.page,
      limit: q.limit,
    }),
    result: data => ({
      items: data.userBenefits.items.map(benefitWire),
      pagination: toWire(data.userBenefits.pagination),
    }),
    status: 200,
    response: listOf(benefitResponse),
  });
  return [
    list('/v1/users/benefit', 'users:benefit'),
    list('/v1/users/benefits/', 'users:benefits:list'),
    {
      operationId: 'users:benefits:get',
      method: 'get',
      path: '/v1/users/benefits/{id}',
      summary: "Get one of the user's benefits",
      description,
      tag: 'users',
      access: USER_BENEFITS_READ,
      params: idParams,
      operation: 'UsersBenefitsGet',
      variables: ({ params }) => ({ id: params.id }),
      result: data => benefitWire(data.userBenefit),
      status: 200,
      response: benefitResponse,
      errors: [404],
    },
  ];
}
