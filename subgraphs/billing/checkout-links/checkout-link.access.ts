import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the checkout-link operations of the Core API (`rest-adapter/v1/routes/checkout-links.routes.ts`). */
export const CHECKOUT_LINKS_READ = coreApiRule('checkout_links:read', 'checkout_links:write');
export const CHECKOUT_LINKS_WRITE = coreApiRule('checkout_links:write');

/**
 * Following a link (`GET /v1/checkout-links/{client_secret}/redirect`): anyone holding its client
 * secret, as Polar's redirect is public (the link is meant to be shared).
 */
export const CHECKOUT_LINK_OPEN: AccessRule = { subjects: ['anonymous'], scopes: [] };
