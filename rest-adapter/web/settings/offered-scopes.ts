import { GRANTABLE_SCOPES } from '../../../kit/scopes.js';
import type { Route } from '../../v1/routes/route.js';

/**
 * The scopes the token form offers: of the grantable scopes, those of the resources some served
 * operation asks for (`products:read` and `products:write` when any route takes either). Scopes of
 * features this service does not have yet (payouts, wallets…) would grant nothing, so the form
 * leaves them out; a token created through the API or the CLI may still carry any of Polar's scopes.
 */
export function offeredScopes(routes: readonly Route[]): string[] {
  const resources = new Set(routes.flatMap(route => route.access.scopes.map(scope => scope.split(':')[0])));
  return GRANTABLE_SCOPES.filter(scope => resources.has(scope.split(':')[0]));
}

/** The form's sections, each a few resources, in this order; a resource not named here goes under "Other". */
const SECTIONS: readonly { label: string; resources: readonly string[] }[] = [
  { label: 'Organization', resources: ['organizations', 'webhooks'] },
  { label: 'Catalogue', resources: ['products', 'benefits', 'files', 'discounts', 'license_keys', 'custom_fields'] },
  {
    label: 'Selling',
    resources: ['checkouts', 'checkout_links', 'orders', 'refunds', 'payments', 'subscriptions', 'disputes'],
  },
  { label: 'Customers', resources: ['customers', 'members', 'customer_seats', 'customer_sessions', 'customer_portal'] },
  { label: 'Usage and analytics', resources: ['events', 'meters', 'customer_meters', 'metrics'] },
];

export interface ScopeSection {
  label: string;
  groups: { label: string; scopes: string[] }[];
}

/** `scopes` by section, then by resource (`products:read` and `products:write` under "Products"). */
export function scopeSections(scopes: readonly string[]): ScopeSection[] {
  const byResource = new Map<string, string[]>();
  for (const scope of scopes) {
    const resource = scope.split(':')[0];
    byResource.set(resource, [...(byResource.get(resource) ?? []), scope]);
  }
  const named = new Set(SECTIONS.flatMap(s => s.resources));
  const sections = [
    ...SECTIONS,
    { label: 'Other', resources: [...byResource.keys()].filter(resource => !named.has(resource)) },
  ];
  return sections
    .map(section => ({
      label: section.label,
      groups: section.resources
        .filter(resource => byResource.has(resource))
        .map(resource => ({ label: resourceLabel(resource), scopes: byResource.get(resource)! })),
    }))
    .filter(section => section.groups.length > 0);
}

const resourceLabel = (resource: string) => resource.charAt(0).toUpperCase() + resource.slice(1).replace(/_/g, ' ');
