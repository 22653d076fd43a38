import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Discount as DiscountEntity } from '../discounts/discount.entity.js';
import { DiscountType } from '../discounts/discount.type.js';
import { ProductType, productFromRow, type ProductRow } from '../products/product.type.js';
import { Metadata } from '../shared/scalars.js';
import type { CheckoutLink as CheckoutLinkEntity } from './checkout-link.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** The public URL of a link: following it opens a fresh checkout (Polar's `CHECKOUT_BASE_URL`). */
export const checkoutLinkUrl = (publicUrl: string, clientSecret: string) =>
  `${publicUrl.replace(/\/$/, '')}/v1/checkout-links/${clientSecret}/redirect`;

/** A checkout link (Polar's CheckoutLink): its settings, its products with their prices, its discount. */
@ObjectType('CheckoutLink', SIMPLE)
export class CheckoutLinkType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() paymentProcessor!: string;
  @Field() clientSecret!: string;
  @Field() url!: string;
  @Field(() => String, { nullable: true }) successUrl!: string | null;
  @Field(() => String, { nullable: true }) returnUrl!: string | null;
  @Field(() => String, { nullable: true }) label!: string | null;
  @Field() allowDiscountCodes!: boolean;
  @Field() requireBillingAddress!: boolean;
  @Field(() => ID, { nullable: true }) discountId!: string | null;
  @Field(() => String, { nullable: true }) trialInterval!: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount!: number | null;
  @Field(() => Int, {
    nullable: true,
    description: 'Seats preset on the checkouts the link opens: always null, a link here presets none.',
  })
  seats!: number | null;
  @Field(() => Int, { nullable: true, description: 'Always null: no unit-based prices here.' }) units!: number | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => [ProductType]) products!: ProductType[];
  @Field(() => DiscountType, { nullable: true }) discount!: DiscountType | null;

  /** THE public shape of a link, from a row of `checkoutLinkRead`. */
  static fromRow(row: ReadRow, publicUrl: string): CheckoutLinkType {
    const l = row.r as CheckoutLinkEntity;
    return {
      id: l.id,
      createdAt: toDate(l.createdAt),
      modifiedAt: toDate(l.modifiedAt),
      paymentProcessor: 'stripe',
      clientSecret: l.clientSecret,
      url: checkoutLinkUrl(publicUrl, l.clientSecret),
      successUrl: l.successUrl,
      returnUrl: l.returnUrl,
      label: l.label,
      allowDiscountCodes: l.allowDiscountCodes,
      requireBillingAddress: l.requireBillingAddress,
      discountId: row.discount ? l.discountId : null,
      trialInterval: l.trialInterval,
      trialIntervalCount: l.trialIntervalCount,
      seats: null,
      units: null,
      organizationId: l.organizationId,
      metadata: l.metadata ?? {},
      products: ((row.products as ProductRow[] | null) ?? []).map(productFromRow),
      discount: row.discount ? DiscountType.fromEntity(row.discount as DiscountEntity) : null,
    };
  }
}

@ObjectType('CheckoutLinkList', SIMPLE)
export class CheckoutLinkList extends ListResource(CheckoutLinkType) {}
