import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { type AttachedCustomFieldView, attachedFromRow } from '../custom-fields/product-custom-fields.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { BenefitType } from '../benefits/benefit.type.js';
import type { Benefit as BenefitEntity } from '../benefits/benefit.entity.js';
import { Metadata, MinorUnits } from '../shared/scalars.js';
import type { ProductPrice as ProductPriceEntity } from './product-price.entity.js';
import type { Product as ProductEntity } from './product.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

@ObjectType('ProductPriceSeatTier', SIMPLE)
export class SeatTierType {
  @Field(() => Int) minSeats!: number;
  @Field(() => Int, { nullable: true }) maxSeats!: number | null;
  @Field(() => MinorUnits) pricePerSeat!: bigint;
}

@ObjectType('ProductPriceSeatTiers', SIMPLE)
export class SeatTiersType {
  @Field(() => String) seatTierType!: string;
  @Field(() => [SeatTierType]) tiers!: SeatTierType[];
  @Field(() => Int) minimumSeats!: number;
  @Field(() => Int, { nullable: true }) maximumSeats!: number | null;
}

/** Polar's ProductPriceMeter: the meter a metered price bills, as prices embed it. */
@ObjectType('ProductPriceMeter', SIMPLE)
export class ProductPriceMeterType {
  @Field(() => ID) id!: string;
  @Field() name!: string;
  @Field() unit!: string;
  @Field(() => String, { nullable: true }) customLabel!: string | null;
  @Field(() => Int, { nullable: true }) customMultiplier!: number | null;
}

/**
 * One price of a product (docs/polar/resources.md#product-and-prices). One GraphQL type for every `amountType` (`fixed`,
 * `custom`, `seat_based`, `free`): the amount fields that do not apply to a kind are null, and the REST
 * adapter emits exactly the keys of Polar's variant. Enum-like fields are strings (Polar's enums are open).
 */
@ObjectType('ProductPrice', SIMPLE)
export class ProductPriceType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String, { description: 'catalog | ad_hoc' }) source!: string;
  @Field(() => String, { description: 'fixed | custom | seat_based | free' }) amountType!: string;
  @Field(() => String) priceCurrency!: string;
  @Field(() => String, { nullable: true }) taxBehavior!: string | null;
  @Field() isArchived!: boolean;
  @Field(() => ID) productId!: string;
  @Field(() => MinorUnits, { nullable: true, description: 'fixed: the price' }) priceAmount!: bigint | null;
  @Field(() => MinorUnits, { nullable: true, description: 'custom: lowest amount the customer may pay' })
  minimumAmount!: bigint | null;
  @Field(() => MinorUnits, { nullable: true, description: 'custom' }) maximumAmount!: bigint | null;
  @Field(() => MinorUnits, { nullable: true, description: 'custom' }) presetAmount!: bigint | null;
  @Field(() => SeatTiersType, { nullable: true, description: 'seat_based' }) seatTiers!: SeatTiersType | null;
  @Field(() => MinorUnits, { nullable: true, description: 'seat_based: the first tier price (Polar hidden field)' })
  pricePerSeat!: bigint | null;
  @Field(() => ID, { nullable: true, description: 'metered_unit' }) meterId!: string | null;
  @Field(() => ProductPriceMeterType, { nullable: true, description: 'metered_unit' })
  meter!: ProductPriceMeterType | null;
  @Field(() => String, { nullable: true, description: 'metered_unit: minor units per unit, exact decimal' })
  unitAmount!: string | null;
  @Field(() => MinorUnits, { nullable: true, description: 'metered_unit' }) capAmount!: bigint | null;
  @Field(() => String, { description: 'one_time | recurring, from the product (Polar hidden field)' }) type!: string;
  @Field(() => String, { nullable: true, description: 'from the product (Polar hidden field)' }) recurringInterval!:
    | string
    | null;

  static fromEntity(price: ProductPriceEntity, product: Pick<ProductEntity, 'recurringInterval'>): ProductPriceType {
    const tiers = price.seatTiers?.tiers ?? [];
    return {
      id: price.id,
      createdAt: toDate(price.createdAt),
      modifiedAt: toDate(price.modifiedAt),
      source: price.source,
      amountType: price.amountType,
      priceCurrency: price.priceCurrency,
      taxBehavior: price.taxBehavior,
      isArchived: price.isArchived,
      productId: price.productId,
      priceAmount: toBigInt(price.priceAmount),
      minimumAmount: toBigInt(price.minimumAmount),
      maximumAmount: toBigInt(price.maximumAmount),
      presetAmount: toBigInt(price.presetAmount),
      seatTiers: price.seatTiers
        ? {
            seatTierType: price.seatTiers.seat_tier_type,
            tiers: tiers.map(t => ({
              minSeats: t.min_seats,
              maxSeats: t.max_seats,
              pricePerSeat: BigInt(t.price_per_seat),
            })),
            minimumSeats: tiers[0]?.min_seats ?? 1,
            maximumSeats: tiers.length ? tiers[tiers.length - 1].max_seats : null,
          }
        : null,
      pricePerSeat: tiers.length ? BigInt(tiers[0].price_per_seat) : null,
      meterId: price.meterId ?? null,
      meter: meterOf(price),
      unitAmount: price.unitAmount == null ? null : fixedScale(String(price.unitAmount)),
      capAmount: toBigInt(price.capAmount ?? null),
      type: product.recurringInterval ? 'recurring' : 'one_time',
      recurringInterval: product.recurringInterval,
    };
  }
}

export const PRODUCT_IS_DELETABLE =
  'Whether the product can be permanently deleted: not referenced by an order, a subscription (trials included) or a discount.';
/** The embedded meter of a read-path price row (`priceJson` adds it as `meter`); absent on write results. */
function meterOf(price: ProductPriceEntity): ProductPriceMeterType | null {
  const meter = (price as unknown as { meter?: Record<string, unknown> | null }).meter;
  if (!meter) return null;
  return {
    id: meter.id as string,
    name: meter.name as string,
    unit: meter.unit as string,
    customLabel: (meter.customLabel ?? null) as string | null,
    customMultiplier: meter.customMultiplier == null ? null : Number(meter.customMultiplier),
  };
}

/** numeric(17, 12) as PostgreSQL prints it (12 decimals), which is what Polar answers for `unit_amount`. */
function fixedScale(decimal: string): string {
  const [whole, fraction = ''] = decimal.split('.');
  return `${whole}.${fraction.padEnd(12, '0').slice(0, 12)}`;
}

/** The public Product (docs/polar/resources.md#product-and-prices). Medias and custom fields do not exist here yet: always empty. */
@ObjectType('Product', SIMPLE)
export class ProductType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String, { nullable: true }) trialInterval!: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount!: number | null;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => String, { description: 'draft | private | public' }) visibility!: string;
  @Field(() => String, { nullable: true }) recurringInterval!: string | null;
  @Field(() => Int, { nullable: true }) recurringIntervalCount!: number | null;
  @Field(() => String, { nullable: true }) meterInterval!: string | null;
  @Field(() => Int, { nullable: true }) meterIntervalCount!: number | null;
  @Field() isRecurring!: boolean;
  @Field() isArchived!: boolean;
  /** Unset on a product embedded where no answer shows it: `ProductDeletableResolver` reads it when selected. */
  @Field(() => Boolean, { description: PRODUCT_IS_DELETABLE })
  isDeletable?: boolean;
  @Field(() => ID) organizationId!: string;
  @Field(() => OrganizationRef, { description: 'The owning organization (resolved by the identity subgraph).' })
  organization!: OrganizationRef;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => [ProductPriceType]) prices!: ProductPriceType[];
  @Field(() => [BenefitType], { description: "The product's live benefits, in the product's order." })
  benefits!: BenefitType[];
  @Field(() => [Metadata], { description: 'Always empty: product media are not implemented.' }) medias!: Record<
    string,
    unknown
  >[];
  @Field(() => [Metadata], {
    description: "Polar's AttachedCustomField objects: `customFieldId`, `customField`, `order`, `required`.",
  })
  attachedCustomFields!: Record<string, unknown>[];

  /**
   * THE public shape of a product (GraphQL, REST through it, event payloads), from a managed entity or
   * a row of the read path. `prices`: the prices to show (its live ones, oldest first); `benefits`: its
   * live benefits in order (the read path embeds them); `isDeletable`: the read path computes it
   * (`productReferenced`), a write says it (a product just created is referenced by nothing).
   */
  static fromEntity(
    product: ProductEntity,
    prices: readonly ProductPriceEntity[],
    benefits: readonly BenefitEntity[] = [],
    isDeletable = true,
    attached: readonly AttachedCustomFieldView[] = [],
  ): ProductType {
    return {
      id: product.id,
      createdAt: toDate(product.createdAt),
      modifiedAt: toDate(product.modifiedAt),
      trialInterval: product.trialInterval,
      trialIntervalCount: product.trialIntervalCount,
      name: product.name,
      description: product.description,
      visibility: product.visibility,
      recurringInterval: product.recurringInterval,
      recurringIntervalCount: product.recurringIntervalCount,
      meterInterval: null,
      meterIntervalCount: null,
      isRecurring: product.recurringInterval !== null,
      isArchived: product.isArchived,
      isDeletable,
      organizationId: product.organizationId,
      organization: { id: product.organizationId },
      metadata: product.metadata,
      prices: prices.map(p => ProductPriceType.fromEntity(p, product)),
      benefits: benefits.map(BenefitType.fromEntity),
      medias: [],
      attachedCustomFields: attached as unknown as Record<string, unknown>[],
    };
  }
}

/** A product row of the read path (product.read.ts): the product's JSON with its live prices under `prices`. */
export function productFromRow(row: ProductRow): ProductType {
  const product = ProductType.fromEntity(
    row as unknown as ProductEntity,
    row.prices as unknown as ProductPriceEntity[],
    (row.benefits ?? []) as unknown as BenefitEntity[],
    true,
    attachedFromRow(row.attachedCustomFields),
  );
  // The read says it (`probe`, `referenced`) or leaves it to the field's resolver (product.read.ts).
  product.isDeletable = typeof row.isDeletable === 'boolean' ? row.isDeletable : undefined;
  return product;
}

export type ProductRow = Record<string, unknown> & { prices: Record<string, unknown>[] };

/** A price row of the read path: the price's JSON with its product's `productRecurringInterval`. */
export function priceFromRow(row: Record<string, unknown>): ProductPriceType {
  return ProductPriceType.fromEntity(row as unknown as ProductPriceEntity, {
    recurringInterval: (row.productRecurringInterval ?? null) as ProductEntity['recurringInterval'],
  });
}

@ObjectType('ProductList', SIMPLE)
export class ProductList extends ListResource(ProductType) {}
