import { Field, GraphQLISODateTime, ID, InputType, ObjectType } from 'type-graphql';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer } from '../customers/customer.entity.js';
import { CustomerPortalCustomerType } from '../customers/customer-portal.type.js';
import { OrganizationRef } from '../organizations/organization.type.js';
import { Metadata } from '../shared/scalars.js';
import type { Benefit } from './benefit.entity.js';
import type { BenefitGrant } from './benefit-grant.entity.js';
import { BenefitGrantErrorType, BenefitProperties, BenefitType } from './benefit.type.js';

const SIMPLE = { simpleResolvers: true } as const;

/**
 * What a customer sees of a benefit's configuration (Polar's `Benefit<Type>SubscriberProperties`): never
 * the merchant's secrets (a Discord `guild_token`, a role to grant, a Slack integration).
 */
export function subscriberProperties(benefit: Pick<Benefit, 'type' | 'properties'>): Record<string, unknown> {
  const p = benefit.properties ?? {};
  const pick = (...keys: string[]) => Object.fromEntries(keys.map(k => [k, p[k] ?? null]));
  switch (benefit.type) {
    case 'custom':
      return pick('note');
    case 'discord':
      return pick('guild_id');
    case 'github_repository':
      return pick('repository_owner', 'repository_name');
    case 'license_keys':
      return pick('prefix', 'expires', 'activations', 'limit_usage');
    case 'meter_credit':
      return pick('units', 'rollover', 'meter_id');
    case 'downloadables': {
      const archived = (p.archived ?? {}) as Record<string, boolean>;
      return { active_files: ((p.files ?? []) as string[]).filter(id => !archived[id]) };
    }
    default:
      return {};
  }
}

/** Polar's `Benefit<Type>Subscriber`: the benefit's public fields, its seller and its subscriber properties. */
@ObjectType('CustomerBenefit', SIMPLE)
export class CustomerBenefitType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => String) type!: string;
  @Field() description!: string;
  @Field() selectable!: boolean;
  @Field() deletable!: boolean;
  @Field() isDeleted!: boolean;
  @Field(() => ID) organizationId!: string;
  @Field(() => Metadata) metadata!: Record<string, string | number | boolean>;
  @Field(() => OrganizationRef, { description: 'The seller (resolved by the identity subgraph).' })
  organization!: OrganizationRef;
  @Field(() => BenefitProperties) properties!: Record<string, unknown>;

  static fromEntity(b: Benefit): CustomerBenefitType {
    // The seller's public shape, less what only the seller sees (visibility, full properties).
    const { visibility: _visibility, visibilityConfigurable: _configurable, ...common } = BenefitType.fromEntity(b);
    return { ...common, organization: { id: b.organizationId }, properties: subscriberProperties(b) };
  }
}

/** Polar's `CustomerBenefitGrant<Type>`: a grant as its customer sees it (customer portal). */
@ObjectType('CustomerBenefitGrant', SIMPLE)
export class CustomerBenefitGrantType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) grantedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) revokedAt!: Date | null;
  @Field() isGranted!: boolean;
  @Field() isRevoked!: boolean;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) memberId!: string | null;
  @Field(() => ID) benefitId!: string;
  @Field(() => ID, { nullable: true }) subscriptionId!: string | null;
  @Field(() => ID, { nullable: true }) orderId!: string | null;
  @Field(() => BenefitGrantErrorType, { nullable: true }) error!: BenefitGrantErrorType | null;
  @Field(() => CustomerPortalCustomerType) customer!: CustomerPortalCustomerType;
  @Field(() => CustomerBenefitType) benefit!: CustomerBenefitType;
  @Field(() => BenefitProperties) properties!: Record<string, unknown>;

  /** From entities or a read row (JSON: ISO strings). */
  static fromEntity(g: BenefitGrant, customer: Customer, benefit: Benefit): CustomerBenefitGrantType {
    const grantedAt = toDate(g.grantedAt);
    const revokedAt = toDate(g.revokedAt);
    const portalCustomer = CustomerPortalCustomerType.fromEntity(customer);
    return {
      id: g.id,
      createdAt: toDate(g.createdAt),
      modifiedAt: toDate(g.modifiedAt),
      grantedAt,
      revokedAt,
      isGranted: grantedAt !== null && revokedAt === null,
      isRevoked: revokedAt !== null,
      customerId: g.customerId,
      memberId: null,
      benefitId: g.benefitId,
      subscriptionId: g.subscriptionId,
      orderId: g.orderId,
      error: g.error ?? null,
      customer: {
        ...portalCustomer,
        createdAt: toDate(portalCustomer.createdAt),
        modifiedAt: toDate(portalCustomer.modifiedAt),
      },
      benefit: CustomerBenefitType.fromEntity(benefit),
      properties: g.properties ?? {},
    };
  }
}

@ObjectType('CustomerBenefitGrantList', SIMPLE)
export class CustomerBenefitGrantList extends ListResource(CustomerBenefitGrantType) {}

/** Polar's `CustomerBenefitGrantUpdate`: the grant's type (must match) and, for integrations, the account. */
@InputType('CustomerBenefitGrantUpdateInput')
export class CustomerBenefitGrantUpdateInput {
  @Field(() => String, { description: "The grant's benefit type; another type is refused (422)." })
  benefitType!: string;
  @Field(() => BenefitProperties, {
    nullable: true,
    description:
      'discord / github_repository: `{account_id}` (the Discord user id, the GitHub login; null disconnects); slack_shared_channel: `{invited_email}`.',
  })
  properties?: Record<string, unknown> | null;
}
