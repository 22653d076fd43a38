import { z } from 'zod';
import { GRANTABLE_SCOPES } from '../../../kit/scopes.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import type { Route } from './route.js';
import {
  ORGANIZATION_ACCESS_TOKENS_READ,
  ORGANIZATION_ACCESS_TOKENS_WRITE,
} from '../../../subgraphs/identity/contract.js';

const scope = z.enum(GRANTABLE_SCOPES as [string, ...string[]]);
const dateTime = z.iso.datetime({ offset: true });

const tokenResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  scopes: z.array(z.string()),
  expires_at: dateTime.nullable(),
  comment: z.string(),
  last_used_at: dateTime.nullable(),
  organization_id: z.uuid(),
});

/** Polar's organization access token management (`/v1/organization-access-tokens/`). */
export const organizationAccessTokenRoutes: Route[] = [
  {
    operationId: 'organization_access_tokens:list',
    method: 'get',
    path: '/v1/organization-access-tokens/',
    summary: 'List organization access tokens',
    tag: 'organization_access_tokens',
    access: ORGANIZATION_ACCESS_TOKENS_READ,
    query: z.object({ organization_id: z.uuid().optional(), ...pageQuery }),
    operation: 'OrganizationAccessTokensList',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null, page: query.page, limit: query.limit }),
    result: data => toWire(data.organizationAccessTokens),
    status: 200,
    response: listOf(tokenResponse),
  },
  {
    operationId: 'organization_access_tokens:create',
    method: 'post',
    path: '/v1/organization-access-tokens/',
    summary: 'Create an organization access token (the token is shown once)',
    tag: 'organization_access_tokens',
    access: ORGANIZATION_ACCESS_TOKENS_WRITE,
    body: z.object({
      organization_id: z.uuid().nullish(),
      comment: z.string(),
      expires_in: z.string().nullish(),
      scopes: z.array(scope),
    }),
    operation: 'OrganizationAccessTokensCreate',
    variables: ({ body }) => ({ input: toInput(body) }),
    result: data => toWire(data.createOrganizationAccessToken),
    status: 201,
    response: z.object({ organization_access_token: tokenResponse, token: z.string() }),
  },
  {
    operationId: 'organization_access_tokens:update',
    method: 'patch',
    path: '/v1/organization-access-tokens/{id}',
    summary: 'Update an organization access token',
    tag: 'organization_access_tokens',
    access: ORGANIZATION_ACCESS_TOKENS_WRITE,
    params: idParams,
    body: z.object({ comment: z.string().nullish(), scopes: z.array(scope).nullish() }),
    operation: 'OrganizationAccessTokensUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(body) }),
    result: data => toWire(data.updateOrganizationAccessToken),
    status: 200,
    response: tokenResponse,
    errors: [403, 404],
  },
  {
    operationId: 'organization_access_tokens:delete',
    method: 'delete',
    path: '/v1/organization-access-tokens/{id}',
    summary: 'Revoke an organization access token',
    tag: 'organization_access_tokens',
    access: ORGANIZATION_ACCESS_TOKENS_WRITE,
    params: idParams,
    operation: 'OrganizationAccessTokensDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [403, 404],
  },
];
