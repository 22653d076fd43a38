import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Customer as CustomerEntity } from '../customers/customer.entity.js';
import { CustomerType } from '../customers/customer.type.js';
import { Metadata, type MetadataValue } from '../shared/scalars.js';
import { displayKey, type LicenseKey, type LicenseKeyActivation } from './license-key.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's LicenseKeyActivationBase; `licenseKey` is set where Polar answers LicenseKeyActivationRead. */
@ObjectType('LicenseKeyActivation', SIMPLE)
export class LicenseKeyActivationType {
  @Field(() => ID) id!: string;
  @Field(() => ID) licenseKeyId!: string;
  @Field() label!: string;
  @Field(() => Metadata) meta!: Record<string, MetadataValue>;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => LicenseKeyType, { nullable: true }) licenseKey!: LicenseKeyType | null;

  static fromEntity(
    a: Readonly<LicenseKeyActivation>,
    licenseKey: LicenseKeyType | null = null,
  ): LicenseKeyActivationType {
    return {
      id: a.id,
      licenseKeyId: a.licenseKeyId,
      label: a.label,
      meta: a.meta ?? {},
      createdAt: toDate(a.createdAt),
      modifiedAt: toDate(a.modifiedAt),
      licenseKey,
    };
  }
}

/**
 * A license key (docs/polar/resources.md#license-keys): LicenseKeyRead, with `activations` (LicenseKeyWithActivations,
 * the get) and `activation` (ValidatedLicenseKey, validate with an `activation_id`) where Polar adds them.
 */
@ObjectType('LicenseKey', SIMPLE)
export class LicenseKeyType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) organizationId!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => CustomerType) customer!: CustomerType;
  @Field(() => ID) benefitId!: string;
  @Field() key!: string;
  @Field() displayKey!: string;
  @Field(() => String, { description: 'granted | revoked | disabled' }) status!: string;
  @Field(() => Int, { nullable: true }) limitActivations!: number | null;
  @Field(() => Int) usage!: number;
  @Field(() => Int, { nullable: true }) limitUsage!: number | null;
  @Field(() => Int) validations!: number;
  @Field(() => GraphQLISODateTime, { nullable: true }) lastValidatedAt!: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt!: Date | null;
  @Field(() => [LicenseKeyActivationType], { description: 'Live activations (the get).' })
  activations!: LicenseKeyActivationType[];
  @Field(() => LicenseKeyActivationType, { nullable: true, description: 'The activation a validation named.' })
  activation!: LicenseKeyActivationType | null;
  /** The benefit grant that issued the key: not a field, what `grantingSubscription`/`grantingOrder` read. */
  grantId!: string;

  /** From a managed entity or a row of the read path (same property names). */
  static fromEntity(
    k: Readonly<LicenseKey>,
    customer: Readonly<CustomerEntity>,
    activations: readonly LicenseKeyActivation[] = [],
  ): LicenseKeyType {
    return {
      id: k.id,
      createdAt: toDate(k.createdAt),
      modifiedAt: toDate(k.modifiedAt),
      organizationId: k.organizationId,
      customerId: k.customerId,
      customer: CustomerType.fromEntity(customer),
      benefitId: k.benefitId,
      grantId: k.grantId,
      key: k.key,
      displayKey: displayKey(k.key),
      status: k.status,
      limitActivations: k.limitActivations,
      usage: k.usage,
      limitUsage: k.limitUsage,
      validations: k.validations,
      lastValidatedAt: toDate(k.lastValidatedAt),
      expiresAt: toDate(k.expiresAt),
      activations: activations.map(a => LicenseKeyActivationType.fromEntity(a)),
      activation: null,
    };
  }

  /** A row of `licenseKeyRead` as the public type. */
  static fromRow(row: ReadRow): LicenseKeyType {
    return LicenseKeyType.fromEntity(
      row.r as LicenseKey,
      row.customer as CustomerEntity,
      (row.activations as LicenseKeyActivation[] | null) ?? [],
    );
  }
}

@ObjectType('LicenseKeyList', SIMPLE)
export class LicenseKeyList extends ListResource(LicenseKeyType) {}
