import { createHash } from 'node:crypto';
import { Directive, Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { Metadata, type MetadataValue } from '../shared/scalars.js';
import type { Address, Customer as CustomerEntity } from './customer.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** A postal address (docs/polar/resources.md#customer `Address`): every key always present. */
@ObjectType('Address', SIMPLE)
export class AddressType {
  @Field(() => String, { nullable: true }) line1!: string | null;
  @Field(() => String, { nullable: true }) line2!: string | null;
  @Field(() => String, { nullable: true }) postalCode!: string | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field() country!: string;

  static fromStored(a: Address | null): AddressType | null {
    if (!a) return null;
    return {
      line1: a.line1 ?? null,
      line2: a.line2 ?? null,
      postalCode: a.postal_code ?? null,
      city: a.city ?? null,
      state: a.state ?? null,
      country: a.country,
    };
  }
}

/**
 * Polar's avatar for a customer: a Gravatar URL that answers 404 when there is none (the SDK requires
 * a string, so a team without e-mail gets the hash of the empty string).
 */
export function customerAvatarUrl(email: string | null): string {
  const hash = createHash('sha256')
    .update((email ?? '').trim().toLowerCase())
    .digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?d=404`;
}

/**
 * The public Customer (docs/polar/resources.md#customer): one object type discriminated by `type` ("individual" |
 * "team"); every key is always sent. Other billing types embed it (subscriptions, orders) through
 * `CustomerType.fromEntity` or the batched loader in customer.loader.ts.
 */
@ObjectType('Customer', SIMPLE)
@Directive('@key(fields: "id")')
export class CustomerType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => Metadata) metadata!: Record<string, MetadataValue>;
  @Field(() => String, { nullable: true }) externalId!: string | null;
  /** Null only for a team customer created without one. */
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field() emailVerified!: boolean;
  /** `individual` or `team`. */
  @Field() type!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) billingName!: string | null;
  @Field(() => AddressType, { nullable: true }) billingAddress!: AddressType | null;
  /** `[value, format]`, e.g. `["FR61954506077", "eu_vat"]`. */
  @Field(() => [String], { nullable: true }) taxId!: string[] | null;
  @Field(() => String, { nullable: true }) locale!: string | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID, { nullable: true }) defaultPaymentMethodId!: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) deletedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) firstUserEventAt!: Date | null;
  @Field() avatarUrl!: string;

  /**
   * THE public shape of a customer: for GraphQL (and so REST) and for event payloads. Takes a managed
   * entity or a row of the read path (customer.read.ts: the same property names, JSON values).
   */
  static fromEntity(c: Readonly<CustomerEntity>): CustomerType {
    return {
      id: c.id,
      createdAt: toDate(c.createdAt),
      modifiedAt: toDate(c.modifiedAt),
      metadata: c.metadata ?? {},
      externalId: c.externalId,
      email: c.email,
      emailVerified: c.emailVerified,
      type: c.type,
      name: c.name,
      billingName: c.billingName,
      billingAddress: AddressType.fromStored(c.billingAddress),
      taxId: c.taxId ? [...c.taxId] : null,
      locale: c.locale,
      organizationId: c.organizationId,
      defaultPaymentMethodId: c.defaultPaymentMethodId ?? null,
      deletedAt: toDate(c.deletedAt),
      firstUserEventAt: toDate(c.firstUserEventAt ?? null),
      avatarUrl: customerAvatarUrl(c.email),
    };
  }
}

@ObjectType('CustomerList', SIMPLE)
export class CustomerList extends ListResource(CustomerType) {}
