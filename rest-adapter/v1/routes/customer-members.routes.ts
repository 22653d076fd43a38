import { z } from 'zod';
import {
  MEMBER_DEFAULT_SORTING,
  MEMBER_SORT_KEYS,
  MEMBERS_READ,
  MEMBERS_WRITE,
} from '../../../subgraphs/billing/contract.js';
import { listOf, pageQuery, sortingQuery, toWire } from './common.js';
import { memberCreateBody, memberResponse, memberUpdateBody } from './members.schemas.js';
import type { Route } from './route.js';

/** How each pair of routes names the customer and the member: by ids, or by the merchant's external ids. */
const VARIANTS = [
  {
    suffix: '',
    path: '/v1/customers/{id}/members',
    memberPath: '/v1/customers/{id}/members/{member_id}',
    customer: z.object({ id: z.uuid() }),
    member: z.object({ id: z.uuid(), member_id: z.uuid() }),
    customerVars: (p: Record<string, string>) => ({ customerId: p.id, customerExternalId: null }),
    memberVars: (p: Record<string, string>) => ({ memberId: p.member_id, memberExternalId: null }),
    noun: '',
    /** Polar's 409 `AmbiguousExternalCustomerID` answers only where the customer is named by external id. */
    ambiguous: [] as number[],
  },
  {
    suffix: '_external',
    path: '/v1/customers/external/{external_id}/members',
    memberPath: '/v1/customers/external/{external_id}/members/{member_external_id}',
    customer: z.object({ external_id: z.string() }),
    member: z.object({ external_id: z.string(), member_external_id: z.string() }),
    customerVars: (p: Record<string, string>) => ({ customerId: null, customerExternalId: p.external_id }),
    memberVars: (p: Record<string, string>) => ({ memberId: null, memberExternalId: p.member_external_id }),
    noun: ' by external ids',
    ambiguous: [409],
  },
];

/**
 * Polar's customer members (`/v1/customers/{id}/members`, docs/members.md), by the customer's id or its
 * external id: list, create, get, update and delete, with Polar's `members:*` scopes.
 */
export const customerMemberRoutes: Route[] = VARIANTS.flatMap(v => [...teamRoutes(v), ...memberRoutes(v)]);

type Variant = (typeof VARIANTS)[number];

/** The list and the create, on the customer's members. */
function teamRoutes(v: Variant): Route[] {
  return [
    {
      operationId: `customers:members:list${v.suffix}`,
      method: 'get',
      path: v.path,
      summary: `List a customer's members${v.noun}`,
      tag: 'customers',
      access: MEMBERS_READ,
      params: v.customer,
      query: z.object({
        role: z.enum(['owner', 'billing_manager', 'member']).nullish(),
        ...pageQuery,
        sorting: sortingQuery(MEMBER_SORT_KEYS, MEMBER_DEFAULT_SORTING),
      }),
      operation: 'CustomerMembersList',
      variables: ({ params, query }) => ({
        ...v.customerVars(params),
        role: query.role ?? null,
        page: query.page,
        limit: query.limit,
        sorting: query.sorting,
      }),
      result: data => toWire(data.customerMembers),
      status: 200,
      response: listOf(memberResponse),
      errors: [404, ...v.ambiguous],
    },
    {
      operationId: `customers:members:create${v.suffix}`,
      method: 'post',
      path: v.path,
      summary: `Add a member to a customer${v.noun}`,
      description:
        'Where the member model or seat-based pricing is on (403 otherwise). An individual customer has one member, its owner (403); an e-mail the customer already has answers that member.',
      tag: 'customers',
      access: MEMBERS_WRITE,
      params: v.customer,
      body: memberCreateBody,
      operation: 'CustomerMembersCreate',
      variables: ({ params, body }) => ({
        ...v.customerVars(params),
        input: { email: body.email, name: body.name ?? null, externalId: body.external_id ?? null, role: body.role },
      }),
      result: data => toWire(data.createCustomerMember),
      status: 201,
      response: memberResponse,
      errors: [403, 404, ...v.ambiguous],
    },
  ];
}

/** The get, update and delete of one member. */
function memberRoutes(v: Variant): Route[] {
  return [
    {
      operationId: `customers:members:get${v.suffix}`,
      method: 'get',
      path: v.memberPath,
      summary: `Get a member of a customer${v.noun}`,
      tag: 'customers',
      access: MEMBERS_READ,
      params: v.member,
      operation: 'CustomerMembersGet',
      variables: ({ params }) => ({ ...v.customerVars(params), ...v.memberVars(params) }),
      result: data => toWire(data.customerMember),
      status: 200,
      response: memberResponse,
      errors: [404, ...v.ambiguous],
    },
    {
      operationId: `customers:members:update${v.suffix}`,
      method: 'patch',
      path: v.memberPath,
      summary: `Update a member of a customer${v.noun}`,
      description:
        "Name, e-mail and role. Making a member the owner makes the owner a billing manager; the owner's own role cannot change otherwise (422).",
      tag: 'customers',
      access: MEMBERS_WRITE,
      params: v.member,
      body: memberUpdateBody,
      operation: 'CustomerMembersUpdate',
      variables: ({ params, body }) => ({
        ...v.customerVars(params),
        ...v.memberVars(params),
        input: { name: body.name ?? null, email: body.email ?? null, role: body.role ?? null },
      }),
      result: data => toWire(data.updateCustomerMember),
      status: 200,
      response: memberResponse,
      errors: [404, ...v.ambiguous],
    },
    {
      operationId: `customers:members:delete${v.suffix}`,
      method: 'delete',
      path: v.memberPath,
      summary: `Delete a member of a customer${v.noun}`,
      description: 'Soft delete. The only owner cannot be deleted (422): move ownership first.',
      tag: 'customers',
      access: MEMBERS_WRITE,
      params: v.member,
      operation: 'CustomerMembersDelete',
      variables: ({ params }) => ({ ...v.customerVars(params), ...v.memberVars(params) }),
      result: () => undefined,
      status: 204,
      errors: [404, ...v.ambiguous],
    },
  ];
}
