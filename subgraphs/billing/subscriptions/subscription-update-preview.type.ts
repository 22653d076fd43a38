import { Field, GraphQLISODateTime, ObjectType } from 'type-graphql';
import type { ChangePreview } from '../pricing/proration.js';
import { MinorUnits } from '../shared/scalars.js';

@ObjectType('SubscriptionUpdatePreviewItem', { simpleResolvers: true })
export class SubscriptionUpdatePreviewItemType {
  @Field() label!: string;
  @Field(() => MinorUnits) amount!: bigint;
  @Field() proration!: boolean;
}

/**
 * What `PATCH /v1/subscriptions/{id}` with the same body would produce (pricing/proration.ts
 * `ChangePreview`): the order made now (`invoice`), or the next renewal order (`prorate`,
 * `next_period`); nothing at all for a change that bills nothing.
 */
@ObjectType('SubscriptionUpdatePreview', { simpleResolvers: true })
export class SubscriptionUpdatePreviewType {
  @Field(() => GraphQLISODateTime) appliesAt!: Date;
  @Field() currency!: string;
  @Field(() => [SubscriptionUpdatePreviewItemType]) items!: SubscriptionUpdatePreviewItemType[];
  @Field(() => MinorUnits) subtotalAmount!: bigint;
  @Field(() => MinorUnits) discountAmount!: bigint;
  @Field(() => MinorUnits) netAmount!: bigint;
  @Field(() => MinorUnits) taxAmount!: bigint;
  @Field(() => MinorUnits) totalAmount!: bigint;

  static from(p: ChangePreview): SubscriptionUpdatePreviewType {
    return {
      appliesAt: p.applies_at,
      currency: p.currency,
      items: p.items.map(i => ({ label: i.label, amount: i.amount, proration: i.proration })),
      subtotalAmount: p.subtotal_amount,
      discountAmount: p.discount_amount,
      netAmount: p.net_amount,
      taxAmount: p.tax_amount,
      totalAmount: p.total_amount,
    };
  }
}
