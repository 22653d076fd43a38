import { createHash } from 'node:crypto';
import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { BillingContext } from '../context.js';
import { MeterRepository } from '../meters/meter.repository.js';
import { MeterType } from '../meters/meter.type.js';
import { Metadata } from '../shared/scalars.js';
import { wireOf } from '../shared/wire.js';
import { BillingSubscriptionType } from './subscription.type.js';
import { meteredUsage } from '../usage-billing/usage-lines.js';

/** A stable id for a (subscription, meter) pair: Polar's SubscriptionMeter is a row; here it is computed. */
const pairId = (subscriptionId: string, meterId: string): string => {
  const hex = createHash('sha256').update(`${subscriptionId}:${meterId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/**
 * `Subscription.meters[]` (docs/usage-billing.md#estimated-charges): Polar's SubscriptionMeter per metered price,
 * the usage billed so far this period (the billing job's entries not yet on an order) and the amount it would
 * charge now. Only subscriptions with a metered price pay for the statements.
 */
@Resolver(() => BillingSubscriptionType)
export class SubscriptionMetersResolver {
  @FieldResolver(() => [Metadata], {
    description: "Polar's SubscriptionMeter: consumed and credited units so far this period and the estimated amount.",
  })
  async meters(@Root() s: BillingSubscriptionType, @Ctx() ctx: BillingContext): Promise<Record<string, unknown>[]> {
    const metered = (s.prices ?? []).filter(p => p.amountType === 'metered_unit');
    if (!metered.length) return [];
    const subscription = { id: s.id, organizationId: s.organizationId, priceIds: metered.map(p => p.id) };
    const usage = await meteredUsage(ctx.em, subscription, new Date(8.64e15));
    const meters = new Map(
      (await new MeterRepository(ctx.em).findMany(usage.map(u => u.terms.meter_id))).map(m => [m.id, m]),
    );
    return usage.map(u => ({
      created_at: s.createdAt.toISOString(),
      modified_at: null,
      id: pairId(s.id, u.terms.meter_id),
      consumed_units: Number(u.consumed),
      credited_units: Number(u.credited),
      amount: Number(u.amount),
      meter_id: u.terms.meter_id,
      meter: wireOf(MeterType.fromEntity(meters.get(u.terms.meter_id)!)),
    }));
  }
}
