import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the organization operations: the route table (`rest-adapter/v1/routes/organizations.routes.ts`)
 * and the resolvers check these same objects, so REST and GraphQL clients get the same 401/403.
 */
export const ORGANIZATIONS_READ = coreApiRule('organizations:read', 'organizations:write');
/** Creating one makes the caller its owner, so it takes a person (a user), not an organization token. */
export const ORGANIZATIONS_CREATE: AccessRule = { subjects: ['user'], scopes: ['organizations:write'] };
export const ORGANIZATIONS_UPDATE = coreApiRule('organizations:write');
