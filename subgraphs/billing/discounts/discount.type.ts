import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { ProductType } from '../products/product.type.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { Discount as DiscountEntity } from './discount.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

@ObjectType('DiscountAmount', SIMPLE)
export class DiscountAmountType {
  @Field() currency!: string;
  @Field(() => MinorUnits) amount!: bigint;
}

/**
 * A discount (docs/polar/resources.md#discount). One GraphQL type for Polar's four kinds (`type` fixed | percentage ×
 * `duration` once | forever | repeating): `amount`/`currency`/`amounts` are set for fixed discounts,
 * `basisPoints` for percentages, `durationInMonths` for repeating ones. The REST adapter emits exactly
 * the keys of the kind.
 */
@ObjectType('Discount', SIMPLE)
export class DiscountType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() name!: string;
  @Field(() => String, { description: 'fixed | percentage' }) type!: string;
  @Field(() => String, { description: 'once | forever | repeating' }) duration!: string;
  @Field(() => Int, { nullable: true }) durationInMonths!: number | null;
  @Field(() => MinorUnits, { nullable: true, description: 'fixed: the amount off, in `currency`' }) amount!:
    | bigint
    | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => [DiscountAmountType], { description: 'fixed: amount per currency (one currency is supported)' })
  amounts!: DiscountAmountType[];
  @Field(() => Int, { nullable: true, description: 'percentage: 100 = 1%' }) basisPoints!: number | null;
  @Field(() => String, { nullable: true }) code!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startsAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) endsAt!: Date | null;
  @Field(() => Int, { nullable: true }) maxRedemptions!: number | null;
  @Field(() => Int, { nullable: true }) maxRedemptionsPerCustomer!: number | null;
  @Field(() => Int) redemptionsCount!: number;
  @Field(() => ID) organizationId!: string;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => [ID]) productIds!: string[];
  @Field(() => [ProductType], { description: 'The products the discount is restricted to (empty: every product).' })
  products!: ProductType[];

  /**
   * THE public shape of a discount, from a managed entity or a row of the read path. `products`: the
   * restricted products as public types; leave empty for the embedded `Discount…Base` shape.
   */
  static fromEntity(discount: DiscountEntity, products: ProductType[] = []): DiscountType {
    const amount = toBigInt(discount.amount);
    return {
      id: discount.id,
      createdAt: toDate(discount.createdAt),
      modifiedAt: toDate(discount.modifiedAt),
      name: discount.name,
      type: discount.type,
      duration: discount.duration,
      durationInMonths: discount.durationInMonths,
      amount,
      currency: discount.currency,
      amounts: amount !== null && discount.currency ? [{ currency: discount.currency, amount }] : [],
      basisPoints: discount.basisPoints,
      code: discount.code,
      startsAt: toDate(discount.startsAt),
      endsAt: toDate(discount.endsAt),
      maxRedemptions: discount.maxRedemptions,
      maxRedemptionsPerCustomer: discount.maxRedemptionsPerCustomer,
      redemptionsCount: discount.redemptionsCount,
      organizationId: discount.organizationId,
      metadata: discount.metadata,
      productIds: discount.productIds,
      products,
    };
  }
}

@ObjectType('DiscountList', SIMPLE)
export class DiscountList extends ListResource(DiscountType) {}
