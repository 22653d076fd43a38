import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import { Metadata } from '../shared/scalars.js';

@InputType('AddressInput')
export class AddressInput {
  @Field(() => String, { nullable: true }) line1?: string | null;
  @Field(() => String, { nullable: true }) line2?: string | null;
  @Field(() => String, { nullable: true }) postalCode?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) state?: string | null;
  @Field() country!: string;
}

/** Fields create and both updates share. An absent field is left as it is. */
@InputType()
abstract class CustomerFields {
  @Field(() => Metadata, { nullable: true }) metadata?: Record<string, unknown> | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => AddressInput, { nullable: true }) billingAddress?: AddressInput | null;
  /** A plain tax id; its format is derived from the billing address country. */
  @Field(() => String, { nullable: true }) taxId?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
}

/** MemberOwnerCreate: the new customer's owner member, each field defaulting to the customer's own. */
@InputType('CustomerOwnerInput')
export class CustomerOwnerInput {
  @Field() email!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
}

/** CustomerIndividualCreate | CustomerTeamCreate (docs/polar/resources.md#customer); `type` defaults to individual. */
@InputType('CreateCustomerInput')
export class CreateCustomerInput extends CustomerFields {
  @Field(() => String, { nullable: true }) type?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => CustomerOwnerInput, { nullable: true }) owner?: CustomerOwnerInput | null;
}

/** CustomerUpdate: `external_id` may be set once; `type` may go from individual to team. */
@InputType('UpdateCustomerInput')
export class UpdateCustomerInput extends CustomerFields {
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => String, { nullable: true }) type?: string | null;
}

/** CustomerUpdateExternalID: the customer is addressed by its external id, which cannot change here. */
@InputType('UpdateCustomerByExternalIdInput')
export class UpdateCustomerByExternalIdInput extends CustomerFields {}

/** Polar's customer list filters (docs/polar/lists.md). */
@InputType('CustomerFilter')
export class CustomerFilter {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) query?: string | null;
  /** `metadata[key]=value` filters: key → accepted values (OR within a key, AND across keys). */
  @Field(() => GraphQLJSONObject, { nullable: true }) metadata?: Record<string, unknown> | null;
}

/** Polar's CustomerPortalCustomerUpdate: what a customer may change of itself (billing details). */
@InputType('CustomerPortalCustomerUpdateInput')
export class CustomerPortalCustomerUpdateInput {
  @Field(() => String, { nullable: true }) billingName?: string | null;
  @Field(() => AddressInput, { nullable: true }) billingAddress?: AddressInput | null;
  /** True when the body sent `billing_address: null` (refused: an address is never reset). */
  @Field(() => Boolean, { nullable: true }) billingAddressNull?: boolean | null;
  @Field(() => String, { nullable: true }) taxId?: string | null;
}
