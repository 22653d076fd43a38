import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the organization access token operations: the route table
 * (`rest-adapter/v1/routes/organization-access-tokens.routes.ts`) and the resolvers check these same
 * objects, so REST and GraphQL clients get the same 401/403.
 */
export const ORGANIZATION_ACCESS_TOKENS_READ = coreApiRule(
  'organization_access_tokens:read',
  'organization_access_tokens:write',
);
export const ORGANIZATION_ACCESS_TOKENS_WRITE = coreApiRule('organization_access_tokens:write');
