import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { Customer as CustomerEntity } from './customer.entity.js';
import { AddressType } from './customer.type.js';

/** The customer as the Customer Portal API shows it to itself (Polar's CustomerPortalCustomer). */
@ObjectType('CustomerPortalCustomer', { simpleResolvers: true })
export class CustomerPortalCustomerType {
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field() emailVerified!: boolean;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) billingName!: string | null;
  @Field(() => AddressType, { nullable: true }) billingAddress!: AddressType | null;
  @Field(() => [String], { nullable: true }) taxId!: string[] | null;
  /** Linked OAuth accounts by platform; none are linked on a self-hosted instance. */
  @Field(() => GraphQLJSONObject) oauthAccounts!: Record<string, unknown>;
  @Field(() => ID, { nullable: true }) defaultPaymentMethodId!: string | null;
  @Field(() => String, { nullable: true }) type!: string | null;

  static fromEntity(c: Readonly<CustomerEntity>): CustomerPortalCustomerType {
    return {
      createdAt: c.createdAt,
      modifiedAt: c.modifiedAt,
      id: c.id,
      email: c.email,
      emailVerified: c.emailVerified,
      name: c.name,
      billingName: c.billingName,
      billingAddress: AddressType.fromStored(c.billingAddress),
      taxId: c.taxId ? [...c.taxId] : null,
      oauthAccounts: {},
      defaultPaymentMethodId: c.defaultPaymentMethodId ?? null,
      type: c.type,
    };
  }
}
