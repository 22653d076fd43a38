import { Field, ID, InputType, Int } from 'type-graphql';
import { Metadata, MinorUnits } from '../shared/scalars.js';

/** `POST /v1/orders`: a draft order of a one-time product for a customer (docs/selling.md#draft-orders). */
@InputType('OrderCreateInput')
export class OrderCreateInput {
  @Field(() => ID, { nullable: true, description: 'Required unless the caller is an organization token.' })
  organizationId?: string | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { description: 'A one-time product with fixed or free prices.' }) productId!: string;
  @Field(() => String, { nullable: true, description: "Default: the organization's default currency." })
  currency?: string | null;
  @Field(() => MinorUnits, { nullable: true, description: "Overrides the price's amount (0, or at least 50)." })
  amount?: bigint | null;
  @Field(() => Int, { nullable: true, description: 'Refused: no price here is unit-based.' }) units?: number | null;
  @Field(() => String, { nullable: true, description: "The line item's label; default: the product's name." })
  description?: string | null;
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, string | number | boolean> | null;
  @Field(() => Metadata, { nullable: true }) customFieldData?: Record<string, unknown> | null;
}
