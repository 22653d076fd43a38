import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the checkout operations of the Core API (`rest-adapter/v1/routes/checkouts.routes.ts`). */
export const CHECKOUTS_READ = coreApiRule('checkouts:read', 'checkouts:write');
export const CHECKOUTS_WRITE = coreApiRule('checkouts:write');

/**
 * The client endpoints (`/v1/checkouts/client/{client_secret}`): anyone holding the client secret,
 * signed in or not, as Polar's are (the secret is the credential; the browser calls them).
 */
export const CHECKOUT_CLIENT: AccessRule = { subjects: ['anonymous'], scopes: [] };
