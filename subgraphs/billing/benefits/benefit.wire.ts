import { snakeKeys } from '../../../kit/case.js';
import { plain, wireWith } from '../shared/wire.js';

/**
 * Polar's wire shapes of benefits and grants (docs/polar/resources.md#benefit), from the public types or the GraphQL
 * results of schema/operations/benefits.graphql. `properties` are stored in wire form already.
 */
const BENEFIT_KEYS = [
  'id',
  'created_at',
  'modified_at',
  'type',
  'description',
  'selectable',
  'deletable',
  'is_deleted',
  'organization_id',
  'metadata',
  'visibility',
  'visibility_configurable',
  'properties',
];

const BENEFIT_OWN = { properties: null };

export function benefitWire(benefit: object): Record<string, unknown> {
  const wire = wireWith(benefit, BENEFIT_OWN);
  wire.properties = plain((benefit as { properties?: unknown }).properties) ?? {};
  const out: Record<string, unknown> = {};
  for (const key of BENEFIT_KEYS) out[key] = wire[key] ?? (key === 'metadata' ? {} : null);
  return out;
}

/** `BenefitPublic`: what a checkout or a customer sees of a benefit. */
export function benefitPublicWire(benefit: object): Record<string, unknown> {
  const { metadata: _m, properties: _p, visibility: _v, visibility_configurable: _c, ...rest } = benefitWire(benefit);
  return rest;
}

export function benefitGrantWire(grant: object): Record<string, unknown> {
  const { properties, benefit, customer, error, ...rest } = plain(grant) as Record<string, unknown>;
  return {
    ...snakeKeys<Record<string, unknown>>(rest),
    error: error ?? null,
    customer: snakeKeys(customer),
    benefit: benefitWire(benefit as object),
    properties: properties ?? {},
  };
}

/**
 * Polar's `CustomerState` wire body: the customer's keys beside `active_subscriptions`,
 * `granted_benefits` (the merchant's `benefit_metadata` kept as written) and `active_meters`.
 */
export function customerStateWire(state: object): Record<string, unknown> {
  const s = state as {
    customer: object;
    activeSubscriptions?: object[];
    grantedBenefits?: (object & { benefitMetadata?: unknown; properties?: unknown })[];
    activeMeters?: object[];
  };
  return {
    ...snakeKeys<Record<string, unknown>>(plain(s.customer)),
    active_subscriptions: (s.activeSubscriptions ?? []).map(sub => ({
      ...snakeKeys<Record<string, unknown>>(plain(sub)),
      custom_field_data: {},
      meters: [],
    })),
    granted_benefits: (s.grantedBenefits ?? []).map(({ benefitMetadata, properties, ...grant }) => ({
      ...snakeKeys<Record<string, unknown>>(plain(grant)),
      benefit_metadata: benefitMetadata ?? {},
      properties: properties ?? {},
    })),
    active_meters: (s.activeMeters ?? []).map(m => snakeKeys<Record<string, unknown>>(plain(m))),
  };
}
