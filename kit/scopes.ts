/** Every scope Polar defines (docs/polar/auth.md#scopes), in Polar's order. */
export const ALL_SCOPES = [
  'openid',
  'profile',
  'email',
  'user:read',
  'user:write',
  'organizations:read',
  'organizations:write',
  'custom_fields:read',
  'custom_fields:write',
  'discounts:read',
  'discounts:write',
  'checkout_links:read',
  'checkout_links:write',
  'checkouts:read',
  'checkouts:write',
  'transactions:read',
  'transactions:write',
  'payouts:read',
  'payouts:write',
  'products:read',
  'products:write',
  'benefits:read',
  'benefits:write',
  'events:read',
  'events:write',
  'meters:read',
  'meters:write',
  'files:read',
  'files:write',
  'subscriptions:read',
  'subscriptions:write',
  'customers:read',
  'customers:write',
  'members:read',
  'members:write',
  'wallets:read',
  'wallets:write',
  'disputes:read',
  'disputes:write',
  'customer_meters:read',
  'customer_sessions:write',
  'member_sessions:write',
  'customer_seats:read',
  'customer_seats:write',
  'orders:read',
  'orders:write',
  'refunds:read',
  'refunds:write',
  'payments:read',
  'metrics:read',
  'metrics:write',
  'webhooks:read',
  'webhooks:write',
  'license_keys:read',
  'license_keys:write',
  'customer_portal:read',
  'customer_portal:write',
  'notifications:read',
  'notifications:write',
  'notification_recipients:read',
  'notification_recipients:write',
  'organization_access_tokens:read',
  'organization_access_tokens:write',
] as const;

export type Scope = (typeof ALL_SCOPES)[number];

const KNOWN = new Set<string>(ALL_SCOPES);
export const isScope = (value: string): value is Scope => KNOWN.has(value);

/**
 * What discovery advertises, dynamic registration defaults to and an organization access token may
 * carry: everything except managing organization access tokens themselves.
 */
export const GRANTABLE_SCOPES: readonly Scope[] = ALL_SCOPES.filter(s => !s.startsWith('organization_access_tokens:'));

/**
 * Expands a scope set the way the interface reads it (docs/interface.md#authentication rule 6): a `x:write` scope also allows
 * the reads that list `x:read`.
 */
export function effectiveScopes(scopes: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const s of scopes) {
    out.add(s);
    if (s.endsWith(':write')) out.add(`${s.slice(0, -':write'.length)}:read`);
  }
  return out;
}
