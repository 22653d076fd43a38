import { coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the order operations of the Core API (`rest-adapter/v1/routes/orders.routes.ts`). */
export const ORDERS_READ = coreApiRule('orders:read', 'orders:write');
export const ORDERS_WRITE = coreApiRule('orders:write');
