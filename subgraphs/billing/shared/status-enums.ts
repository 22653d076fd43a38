import { registerEnumType } from 'type-graphql';
import { SubscriptionStatus } from './enums.js';

/**
 * Statuses as GraphQL enums (docs/graphql.md#statuses). Each value is named by Polar's wire value itself
 * (`past_due`, not `PAST_DUE`): a status reads the same in GraphQL, REST and webhook payloads, and the
 * answers and variables of clients that read these fields as strings do not change. The lists are the
 * entities' status types (order.entity.ts, checkout.entity.ts), repeated: shared/ imports no domain folder.
 */
const byWireValue = <T extends string>(values: readonly T[]) =>
  Object.fromEntries(values.map(value => [value, value])) as { [K in T]: K };

export const SubscriptionStatusEnum = byWireValue(Object.values(SubscriptionStatus));
registerEnumType(SubscriptionStatusEnum, { name: 'SubscriptionStatus', description: "A subscription's status." });

export const OrderStatusEnum = byWireValue(['draft', 'pending', 'paid', 'refunded', 'partially_refunded', 'void']);
registerEnumType(OrderStatusEnum, { name: 'OrderStatus', description: "An order's status." });

export const CheckoutStatusEnum = byWireValue(['open', 'expired', 'confirmed', 'succeeded', 'failed']);
registerEnumType(CheckoutStatusEnum, { name: 'CheckoutStatus', description: "A checkout's status." });
