import { z } from 'zod';
import {
  ORGANIZATION_SORT_KEYS,
  ORGANIZATIONS_CREATE,
  ORGANIZATIONS_READ,
  ORGANIZATIONS_UPDATE,
} from '../../../subgraphs/identity/contract.js';
import { idParams, listOf, pageQuery, sortingQuery, toInput, toWire } from './common.js';
import { organizationCreateBody, organizationResponse, organizationUpdateBody } from './organizations.schemas.js';
import type { Route } from './route.js';

/**
 * Fields real Polar returns that its OpenAPI hides (legacy profile fields); clients ignore them, some
 * older ones read them.
 */
const HIDDEN_LEGACY_FIELDS = {
  bio: null,
  company: null,
  blog: null,
  location: null,
  twitter_username: null,
  pledge_minimum_amount: 0,
  pledge_badge_show_amount: false,
  default_upfront_split_to_contributors: null,
};

const organization = (data: unknown) => ({ ...toWire<Record<string, unknown>>(data), ...HIDDEN_LEGACY_FIELDS });

export const organizationRoutes: Route[] = [
  {
    operationId: 'organizations:list',
    method: 'get',
    path: '/v1/organizations/',
    summary: 'List organizations',
    tag: 'organizations',
    access: ORGANIZATIONS_READ,
    query: z.object({
      slug: z.string().optional(),
      ...pageQuery,
      sorting: sortingQuery(ORGANIZATION_SORT_KEYS, ['created_at']),
    }),
    operation: 'OrganizationsList',
    variables: ({ query }) => ({
      slug: query.slug ?? null,
      page: query.page,
      limit: query.limit,
      sorting: query.sorting,
    }),
    result: data => ({
      items: data.organizations.items.map(organization),
      pagination: toWire(data.organizations.pagination),
    }),
    status: 200,
    response: listOf(organizationResponse),
  },
  {
    operationId: 'organizations:create',
    method: 'post',
    path: '/v1/organizations/',
    summary: 'Create an organization',
    tag: 'organizations',
    access: ORGANIZATIONS_CREATE,
    body: organizationCreateBody,
    operation: 'OrganizationsCreate',
    variables: ({ body }) => {
      const { legal_entity: _legalEntity, ...fields } = body as z.output<typeof organizationCreateBody>;
      return { input: toInput(fields) };
    },
    result: data => organization(data.createOrganization),
    status: 201,
    response: organizationResponse,
    errors: [403],
  },
  {
    operationId: 'organizations:get',
    method: 'get',
    path: '/v1/organizations/{id}',
    summary: 'Get an organization',
    tag: 'organizations',
    access: ORGANIZATIONS_READ,
    params: idParams,
    operation: 'OrganizationsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => organization(data.organization),
    status: 200,
    response: organizationResponse,
    errors: [404],
  },
  {
    operationId: 'organizations:update',
    method: 'patch',
    path: '/v1/organizations/{id}',
    summary: 'Update an organization',
    tag: 'organizations',
    access: ORGANIZATIONS_UPDATE,
    params: idParams,
    body: organizationUpdateBody,
    operation: 'OrganizationsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(dropUndefined(body)) }),
    result: data => organization(data.updateOrganization),
    status: 200,
    response: organizationResponse,
    errors: [403, 404],
  },
];

function dropUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
