import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export enum LicenseKeyStatus {
  GRANTED = 'granted',
  REVOKED = 'revoked',
  DISABLED = 'disabled',
}

/**
 * A license key (docs/polar/resources.md#license-keys), issued once per benefit grant (`grantId` is unique: see
 * license-key.grants.ts). `benefitId` and `grantId` carry no foreign key: the benefits tables are
 * another folder's. Only `granted` keys validate or activate.
 */
@Entity({ tableName: 'license_keys', schema: 'billing' })
@Index({ properties: ['organizationId', 'createdAt'] })
export class LicenseKey {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid' }) benefitId!: string;
  @Property({ type: 'uuid' }) grantId!: string;
  @Property({ type: 'text' }) key!: string;
  @Enum({ items: () => LicenseKeyStatus }) status: LicenseKeyStatus = LicenseKeyStatus.GRANTED;
  @Property({ type: 'integer', nullable: true }) limitActivations: number | null = null;
  @Property({ type: 'integer' }) usage = 0;
  @Property({ type: 'integer', nullable: true }) limitUsage: number | null = null;
  @Property({ type: 'integer' }) validations = 0;
  @Property({ type: 'timestamptz', nullable: true }) lastValidatedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}

/** One activation (an installation, a device) of a key; deactivation sets `deletedAt`. */
@Entity({ tableName: 'license_key_activations', schema: 'billing' })
export class LicenseKeyActivation {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) licenseKeyId!: string;
  @Property({ type: 'text' }) label!: string;
  @Property({ type: 'json' }) conditions: Record<string, string | number | boolean> = {};
  @Property({ type: 'json' }) meta: Record<string, string | number | boolean> = {};
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}

/** Polar's `display_key`: the last six characters behind a mask. */
export const displayKey = (key: string): string => `****-${key.slice(-6)}`;
