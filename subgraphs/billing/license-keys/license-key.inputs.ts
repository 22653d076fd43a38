import { Field, GraphQLISODateTime, ID, InputType, Int } from 'type-graphql';
import { Metadata, type MetadataValue } from '../shared/scalars.js';

/** Polar's LicenseKeyUpdate: absent fields stay, explicit nulls clear the nullable ones. */
@InputType('UpdateLicenseKeyInput')
export class UpdateLicenseKeyInput {
  @Field(() => String, { nullable: true, description: 'granted | revoked | disabled' }) status?: string | null;
  @Field(() => Int, { nullable: true }) usage?: number | null;
  @Field(() => Int, { nullable: true }) limitActivations?: number | null;
  @Field(() => Int, { nullable: true }) limitUsage?: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) expiresAt?: Date | null;
}

@InputType()
abstract class LicenseKeyLookup {
  @Field() key!: string;
  @Field(() => ID) organizationId!: string;
}

/** Polar's LicenseKeyValidate. */
@InputType('ValidateLicenseKeyInput')
export class ValidateLicenseKeyInput extends LicenseKeyLookup {
  @Field(() => ID, { nullable: true }) activationId?: string | null;
  @Field(() => ID, { nullable: true }) benefitId?: string | null;
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => Int, { nullable: true }) incrementUsage?: number | null;
  @Field(() => Metadata, { nullable: true }) conditions?: Record<string, MetadataValue> | null;
}

/** Polar's LicenseKeyActivate. */
@InputType('ActivateLicenseKeyInput')
export class ActivateLicenseKeyInput extends LicenseKeyLookup {
  @Field() label!: string;
  @Field(() => Metadata, { nullable: true }) conditions?: Record<string, MetadataValue> | null;
  @Field(() => Metadata, { nullable: true }) meta?: Record<string, MetadataValue> | null;
}

/** Polar's LicenseKeyDeactivate. */
@InputType('DeactivateLicenseKeyInput')
export class DeactivateLicenseKeyInput extends LicenseKeyLookup {
  @Field(() => ID) activationId!: string;
}
