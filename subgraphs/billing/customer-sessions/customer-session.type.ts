import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { CustomerType } from '../customers/customer.type.js';

/**
 * A new customer portal session (docs/polar/resources.md#customer-session). The token exists only in this answer: the
 * database keeps its hash.
 */
@ObjectType('CustomerSession', { simpleResolvers: true })
export class CustomerSessionType {
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) id!: string;
  @Field() token!: string;
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => String, { nullable: true }) returnUrl!: string | null;
  @Field() customerPortalUrl!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => CustomerType) customer!: CustomerType;
}

/** Polar's CustomerSessionCodeAuthenticateResponse. */
@ObjectType('CustomerSessionCodeAuthenticateResult', { simpleResolvers: true })
export class CustomerSessionCodeAuthenticateResult {
  @Field({ description: 'A customer session token (`polar_cst_…`, one hour).' }) token!: string;
}

/** Polar's CustomerCustomerSession (`GET /v1/customer-portal/customer-session/introspect`). */
@ObjectType('CustomerSessionIntrospection', { simpleResolvers: true })
export class CustomerSessionIntrospectionType {
  @Field(() => GraphQLISODateTime) expiresAt!: Date;
  @Field(() => String, { nullable: true }) returnUrl!: string | null;
}
