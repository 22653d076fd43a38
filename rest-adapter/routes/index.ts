import { organizationAccessTokenRoutes } from './organization-access-tokens.routes.js';
import { organizationRoutes } from './organizations.routes.js';
import type { Route } from './route.js';

/** Every documented REST operation. The OpenAPI document and the HTTP router are both built from this list. */
export const routes: Route[] = [...organizationRoutes, ...organizationAccessTokenRoutes];
