import { snakeKeys } from '../../../kit/case.js';
import { priceWire } from '../products/product.wire.js';

/**
 * What a customer sees through the Customer Portal API (`/v1/customer-portal/…`, customer sessions
 * only), from the GraphQL results of the portal operations: snake_case, prices with their kind's keys,
 * the seller reduced to its public profile.
 */
type Wire = Record<string, any>;

/**
 * Polar's `CustomerSubscription`: snake_case, prices with their kind's keys, and the hidden deprecated
 * `user_id` and `price` real Polar still returns.
 */
export function customerSubscriptionWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(data);
  wire.prices = (wire.prices ?? []).map(priceWire);
  if (wire.product) {
    wire.product = { ...wire.product, prices: (wire.product.prices ?? []).map(priceWire) };
    if (wire.product.organization) wire.product.organization = customerOrganizationWire(wire.product.organization);
  }
  wire.user_id = wire.customer_id;
  wire.price = wire.prices[0] ?? null;
  return wire;
}

/**
 * Polar's `CustomerOrganization` (what a customer sees of the seller) from the snake_cased selection,
 * with the customer portal settings reduced to their public keys. The optional `organization_features`
 * is not selected (see the NOTE in customer-portal-subscriptions.graphql) and so not sent.
 */
export function customerOrganizationWire(organization: Wire): Wire {
  const { customer_portal_settings: portal, ...rest } = organization;
  return {
    ...rest,
    customer_portal_settings: {
      usage: { show: portal.usage.show },
      subscription: { update_seats: portal.subscription.update_seats, update_plan: portal.subscription.update_plan },
      customer: { allow_email_change: portal.customer.allow_email_change },
    },
  };
}

/** Polar's `CustomerOrder`: snake_case, the product's prices with their kind's keys and the seller's profile. */
export function customerOrderWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(data);
  if (wire.product) {
    wire.product = { ...wire.product, prices: (wire.product.prices ?? []).map(priceWire) };
    if (wire.product.organization) wire.product.organization = customerOrganizationWire(wire.product.organization);
  }
  if (wire.subscription) wire.subscription.user_id = wire.customer_id;
  wire.user_id = wire.customer_id;
  return wire;
}

/**
 * Polar's `CustomerBenefitGrant<Type>`. `properties` and the benefit's `metadata` and `properties` are
 * already in wire form (the merchant's keys stay as written), so only the rest is snake-cased.
 */
export function customerBenefitGrantWire(data: Wire): Wire {
  const { customer, benefit, properties, error, ...grant } = data;
  const { metadata, properties: benefitProperties, organization, ...rest } = benefit;
  return {
    ...snakeKeys<Wire>(grant),
    error: error ?? null,
    customer: snakeKeys(customer),
    benefit: {
      ...snakeKeys<Wire>(rest),
      metadata: metadata ?? {},
      organization: snakeKeys(organization),
      properties: benefitProperties ?? {},
    },
    properties: properties ?? {},
  };
}

/** Polar's `CustomerPaymentMethod`: the card variant, `method_metadata` only when there is one. */
export function customerPaymentMethodWire(data: unknown): Wire {
  const wire = snakeKeys<Wire>(data);
  if (wire.method_metadata == null) delete wire.method_metadata;
  return wire;
}
