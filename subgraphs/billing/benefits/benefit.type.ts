import { GraphQLScalarType } from 'graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import { CustomerType } from '../customers/customer.type.js';
import type { Customer } from '../customers/customer.entity.js';
import { Metadata } from '../shared/scalars.js';
import type { Benefit as BenefitEntity } from './benefit.entity.js';
import type { BenefitGrant as BenefitGrantEntity } from './benefit-grant.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** A benefit type's configuration, or a grant's properties: Polar's per-type objects, snake_case keys. */
export const BenefitProperties = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'BenefitProperties',
  description: "A benefit's or a grant's `properties`, exactly as Polar's wire shows them (snake_case keys).",
});

/** Types whose visibility a merchant may change (Polar: every type but the integrations that create channels). */
const VISIBILITY_CONFIGURABLE = new Set(['custom', 'license_keys', 'downloadables', 'meter_credit', 'feature_flag']);

/**
 * A benefit (docs/polar/resources.md#benefit). One GraphQL type for Polar's eight `type`s; `properties` carries the
 * type's configuration.
 */
@ObjectType('Benefit', SIMPLE)
export class BenefitType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String, {
    description:
      'custom | discord | github_repository | downloadables | license_keys | meter_credit | feature_flag | slack_shared_channel',
  })
  type!: string;
  @Field() description!: string;
  @Field() selectable!: boolean;
  @Field() deletable!: boolean;
  @Field() isDeleted!: boolean;
  @Field(() => ID) organizationId!: string;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => String, { description: 'draft | private | public' }) visibility!: string;
  @Field() visibilityConfigurable!: boolean;
  @Field(() => BenefitProperties) properties!: Record<string, unknown>;

  /** THE public shape of a benefit, from an entity or a read row. */
  static fromEntity(b: BenefitEntity): BenefitType {
    return {
      id: b.id,
      createdAt: toDate(b.createdAt),
      modifiedAt: toDate(b.modifiedAt),
      type: b.type,
      description: b.description,
      selectable: b.selectable,
      deletable: b.deletable,
      isDeleted: b.deletedAt != null,
      organizationId: b.organizationId,
      metadata: b.metadata ?? {},
      visibility: b.visibility,
      visibilityConfigurable: VISIBILITY_CONFIGURABLE.has(b.type),
      properties: b.properties ?? {},
    };
  }
}

@ObjectType('BenefitList', SIMPLE)
export class BenefitList extends ListResource(BenefitType) {}

@ObjectType('BenefitGrantError', SIMPLE)
export class BenefitGrantErrorType {
  @Field() message!: string;
  @Field() type!: string;
  @Field() timestamp!: string;
}

/** A benefit held by a customer (docs/polar/resources.md#benefit `BenefitGrant`). */
@ObjectType('BenefitGrant', SIMPLE)
export class BenefitGrantType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) grantedAt!: Date | null;
  @Field() isGranted!: boolean;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;
  @Field() isRevoked!: boolean;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => ID, { nullable: true }) orderId!: string | null;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) memberId!: string | null;
  @Field(() => ID) benefitId!: string;
  @Field(() => BenefitGrantErrorType, { nullable: true }) error!: BenefitGrantErrorType | null;
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => BenefitType) benefit!: BenefitType;
  @Field(() => BenefitProperties) properties!: Record<string, unknown>;

  static fromEntity(g: BenefitGrantEntity, customer: Customer, benefit: BenefitEntity): BenefitGrantType {
    const grantedAt = toDate(g.grantedAt);
    const revokedAt = toDate(g.revokedAt);
    return {
      id: g.id,
      createdAt: toDate(g.createdAt),
      modifiedAt: toDate(g.modifiedAt),
      grantedAt,
      isGranted: grantedAt !== null && revokedAt === null,
      revokedAt,
      isRevoked: revokedAt !== null,
      subscriptionId: g.subscriptionId,
      orderId: g.orderId,
      customerId: g.customerId,
      memberId: null,
      benefitId: g.benefitId,
      error: g.error ?? null,
      customer: CustomerType.fromEntity(customer),
      benefit: BenefitType.fromEntity(benefit),
      properties: g.properties ?? {},
    };
  }
}

@ObjectType('BenefitGrantList', SIMPLE)
export class BenefitGrantList extends ListResource(BenefitGrantType) {}
