import { type AccessRule, coreApiRule } from '../../../kit/graphql/authorize.js';

/** Who may call the license key operations of the Core API (`rest-adapter/v1/routes/license-keys.routes.ts`). */
export const LICENSE_KEYS_READ = coreApiRule('license_keys:read', 'license_keys:write');
export const LICENSE_KEYS_WRITE = coreApiRule('license_keys:write');

/**
 * `/v1/customer-portal/license-keys/validate|activate|deactivate`: anyone, signed in or not, as Polar's
 * (a desktop app holds only the key; the key and the organization id are the credential). Rate
 * limited per address in production (rest-adapter/guards/rate-limit/rules.ts, zone `license_keys`).
 */
export const LICENSE_KEY_CLIENT: AccessRule = { subjects: ['anonymous'], scopes: [] };
