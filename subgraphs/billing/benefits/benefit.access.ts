import type { AccessRule } from '../../../kit/graphql/authorize.js';
import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the benefit operations (REST routes and resolvers check these objects). Grants are
 * read with the benefits scopes, as Polar does.
 */
export const BENEFITS_READ = coreApiRule('benefits:read', 'benefits:write');
export const BENEFITS_WRITE = coreApiRule('benefits:write');

/**
 * `GET /v1/users/benefit(s)`: a person only (personal access token, OAuth user token, web session).
 * Organization tokens, organization OAuth tokens and customer sessions are refused with 401
 * (docs/interface.md#authentication rule 3). No scope: Polar's users endpoints took any user token.
 */
export const USER_BENEFITS_READ: AccessRule = { subjects: ['user'], scopes: [] };
