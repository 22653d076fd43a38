import { z } from 'zod';
import {
  BENEFIT_TYPES,
  CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING,
  CUSTOMER_BENEFIT_GRANT_SORT_KEYS,
  CUSTOMER_PORTAL_READ,
  CUSTOMER_PORTAL_WRITE,
  customerBenefitGrantWire,
} from '../../../subgraphs/billing/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toWire } from './common.js';
import { customerPortalCustomerResponse } from './customers.schemas.js';
import type { Route } from './route.js';

/** Customer sessions (`polar_cst_`) only: the customer's own benefit grants (docs/polar/endpoints.md#customer-portal-api). */

const dateTime = z.iso.datetime({ offset: true });
const grantError = z.object({ message: z.string(), type: z.string(), timestamp: z.string() });
const customerBenefitGrantResponse = z.object({
  id: z.uuid(),
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  granted_at: dateTime.nullable(),
  revoked_at: dateTime.nullable(),
  is_granted: z.boolean(),
  is_revoked: z.boolean(),
  customer_id: z.uuid(),
  member_id: z.uuid().nullable(),
  benefit_id: z.uuid(),
  subscription_id: z.uuid().nullable(),
  order_id: z.uuid().nullable(),
  error: grantError.nullable(),
  customer: customerPortalCustomerResponse,
  benefit: z.looseObject({
    id: z.uuid(),
    type: z.enum(BENEFIT_TYPES),
    description: z.string(),
    organization_id: z.uuid(),
    organization: z.looseObject({ id: z.uuid(), name: z.string(), slug: z.string() }),
    metadata: z.record(z.string(), z.unknown()),
    properties: z.record(z.string(), z.unknown()),
  }),
  properties: z.record(z.string(), z.unknown()).meta({
    description:
      "The grant's properties per type: discord `{account_id, guild_id, role_id, granted_account_id}`, " +
      'github_repository `{account_id, repository_owner, repository_name, permission, granted_account_id}`, ' +
      'slack_shared_channel `{invited_email, channel_id, channel_name, invite_id, invite_url}`, …',
  }),
});

const accountUpdate = z.object({
  account_id: z
    .string()
    .nullable()
    .meta({ description: 'The account to grant to: the Discord user id, the GitHub login. null disconnects.' }),
});
/** Polar's `CustomerBenefitGrantUpdate`, discriminated by `benefit_type`. */
const updateBody = z.discriminatedUnion('benefit_type', [
  z.object({ benefit_type: z.literal('discord'), properties: accountUpdate }),
  z.object({ benefit_type: z.literal('github_repository'), properties: accountUpdate }),
  z.object({
    benefit_type: z.literal('slack_shared_channel'),
    properties: z.object({ invited_email: z.email() }),
  }),
  ...(['downloadables', 'license_keys', 'custom', 'meter_credit', 'feature_flag'] as const).map(type =>
    z.object({ benefit_type: z.literal(type) }),
  ),
]);

export const customerPortalBenefitGrantRoutes: Route[] = [
  {
    operationId: 'customer_portal:benefit-grants:list',
    method: 'get',
    path: '/v1/customer-portal/benefit-grants/',
    summary: "List the customer's benefit grants",
    description: 'Grants that are not revoked, of benefits with `public` visibility.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    query: z.object({
      query: z.string().optional(),
      type: z.array(z.enum(BENEFIT_TYPES)).optional(),
      type_filter: z
        .array(z.enum(BENEFIT_TYPES))
        .optional()
        .meta({ description: 'The same as `type` (the name @polar-sh/sdk sends).' }),
      benefit_id: z.array(z.uuid()).optional(),
      checkout_id: z.array(z.uuid()).optional(),
      order_id: z.array(z.uuid()).optional(),
      subscription_id: z.array(z.uuid()).optional(),
      member_id: z
        .array(z.uuid())
        .optional()
        .meta({ description: 'Grants of these members: there are no members here, so none.' }),
      ...pageQuery,
      sorting: sortingQuery(CUSTOMER_BENEFIT_GRANT_SORT_KEYS, CUSTOMER_BENEFIT_GRANT_DEFAULT_SORTING),
    }),
    operation: 'CustomerPortalBenefitGrantsList',
    variables: ({ query }) => ({
      query: query.query ?? null,
      type: query.type || query.type_filter ? [...(query.type ?? []), ...(query.type_filter ?? [])] : null,
      benefitId: query.benefit_id ?? null,
      checkoutId: query.checkout_id ?? null,
      orderId: query.order_id ?? null,
      subscriptionId: query.subscription_id ?? null,
      memberId: query.member_id ?? null,
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
  {
    operationId: 'customer_portal:benefit-grants:get',
    method: 'get',
    path: '/v1/customer-portal/benefit-grants/{id}',
    summary: "Get one of the customer's benefit grants",
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_READ,
    params: idParams,
    operation: 'CustomerPortalBenefitGrantsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => customerBenefitGrantWire(data.customerPortalBenefitGrant),
    status: 200,
    response: customerBenefitGrantResponse,
    errors: [404],
  },
  {
    operationId: 'customer_portal:benefit-grants:update',
    method: 'patch',
    path: '/v1/customer-portal/benefit-grants/{id}',
    summary: "Update one of the customer's benefit grants",
    description:
      'Connects the account a Discord or GitHub repository benefit is granted to (`properties.account_id`), or ' +
      'the e-mail a Slack shared channel invite goes to (`properties.invited_email`). The grant is then granted ' +
      '(or moved to the new account) by a job: the answer shows it as it was when the job was queued. A revoked ' +
      'grant is 403 `NotPermitted`; a `benefit_type` other than the grant’s is 422.',
    tag: 'customer_portal',
    access: CUSTOMER_PORTAL_WRITE,
    params: idParams,
    body: updateBody,
    operation: 'CustomerPortalBenefitGrantsUpdate',
    variables: ({ params, body }) => ({
      id: params.id,
      input: { benefitType: body.benefit_type, properties: body.properties ?? null },
    }),
    result: data => customerBenefitGrantWire(data.customerPortalUpdateBenefitGrant),
    status: 200,
    response: customerBenefitGrantResponse,
    errors: [403, 404],
  },
];
