import { Field, ID, InputType, Int } from 'type-graphql';
import { Metadata, MinorUnits } from '../shared/scalars.js';

@InputType('ProductPriceSeatTierInput')
export class SeatTierInput {
  @Field(() => Int) minSeats!: number;
  @Field(() => Int, { nullable: true }) maxSeats?: number | null;
  @Field(() => MinorUnits) pricePerSeat!: bigint;
}

@InputType('ProductPriceSeatTiersInput')
export class SeatTiersInput {
  @Field(() => String, { nullable: true, description: 'volume (default) | graduated' }) seatTierType?: string | null;
  @Field(() => [SeatTierInput]) tiers!: SeatTierInput[];
}

/**
 * One entry of a product's `prices`: either `{ id }` (keep an existing price; update only) or a new
 * price of `amountType` fixed | custom | seat_based | free | metered_unit with that kind's amounts.
 */
@InputType('ProductPriceInput')
export class ProductPriceInput {
  @Field(() => ID, {
    nullable: true,
    description: 'An existing price to keep (update only); nothing else may be given with it.',
  })
  id?: string | null;
  @Field(() => String, { nullable: true }) amountType?: string | null;
  @Field(() => String, { nullable: true, description: 'Three-letter currency code, default usd.' }) priceCurrency?:
    | string
    | null;
  @Field(() => String, { nullable: true }) taxBehavior?: string | null;
  @Field(() => MinorUnits, { nullable: true }) priceAmount?: bigint | null;
  @Field(() => MinorUnits, { nullable: true }) minimumAmount?: bigint | null;
  @Field(() => MinorUnits, { nullable: true }) maximumAmount?: bigint | null;
  @Field(() => MinorUnits, { nullable: true }) presetAmount?: bigint | null;
  @Field(() => SeatTiersInput, { nullable: true }) seatTiers?: SeatTiersInput | null;
  @Field(() => ID, { nullable: true, description: 'metered_unit: the meter it bills.' }) meterId?: string | null;
  @Field(() => String, {
    nullable: true,
    description: 'metered_unit: minor units per unit, a decimal with at most 12 decimals (a string: never a float).',
  })
  unitAmount?: string | null;
  @Field(() => MinorUnits, { nullable: true, description: "metered_unit: the most a period's usage charges." })
  capAmount?: bigint | null;
}

/** Polar's AttachedCustomFieldCreate: a custom field the product's checkout asks. */
@InputType('AttachedCustomFieldInput')
export class AttachedCustomFieldInput {
  @Field(() => ID) customFieldId!: string;
  @Field() required!: boolean;
}

@InputType('CreateProductInput')
export class CreateProductInput {
  @Field(() => ID, { nullable: true, description: 'Required for user tokens; forbidden for organization tokens.' })
  organizationId?: string | null;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true, description: 'draft | private | public (default)' }) visibility?:
    | string
    | null;
  @Field(() => String, { nullable: true, description: 'Absent or null: a one-time product.' }) recurringInterval?:
    | string
    | null;
  @Field(() => Int, { nullable: true }) recurringIntervalCount?: number | null;
  @Field(() => String, { nullable: true }) trialInterval?: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount?: number | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
  @Field(() => [ProductPriceInput]) prices!: ProductPriceInput[];
  @Field(() => [AttachedCustomFieldInput], { nullable: true, description: 'In the order the checkout asks them.' })
  attachedCustomFields?: AttachedCustomFieldInput[] | null;
}

/** Every field optional; absent fields are left as they are, explicit nulls clear nullable ones. */
@InputType('UpdateProductInput')
export class UpdateProductInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) visibility?: string | null;
  @Field(() => String, { nullable: true }) recurringInterval?: string | null;
  @Field(() => Int, { nullable: true }) recurringIntervalCount?: number | null;
  @Field(() => String, { nullable: true }) trialInterval?: string | null;
  @Field(() => Int, { nullable: true }) trialIntervalCount?: number | null;
  @Field(() => Boolean, { nullable: true }) isArchived?: boolean | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
  @Field(() => [ProductPriceInput], {
    nullable: true,
    description: 'The complete new list: `{id}` keeps a price, new objects add one, omitted prices are archived.',
  })
  prices?: ProductPriceInput[] | null;
  @Field(() => [AttachedCustomFieldInput], { nullable: true, description: 'The complete new list, in order.' })
  attachedCustomFields?: AttachedCustomFieldInput[] | null;
}
