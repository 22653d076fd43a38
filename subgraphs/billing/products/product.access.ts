import { coreApiRule } from '../../../kit/graphql/authorize.js';

/**
 * Who may call the product operations: the route table (`rest-adapter/v1/routes/products.routes.ts`)
 * and the resolvers check these same objects, so REST and GraphQL clients get the same 401/403.
 * Core API only: a customer session sees a product only embedded in its own subscriptions.
 */
export const PRODUCTS_READ = coreApiRule('products:read', 'products:write');
export const PRODUCTS_WRITE = coreApiRule('products:write');
