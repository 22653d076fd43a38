import { randomUUID } from 'node:crypto';
import { Entity, Enum, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { type OrganizationTaxSettings, defaultTaxSettings } from '../../../kit/tax/tax-settings.js';
import {
  type CustomerEmailSettings,
  type CustomerPortalSettings,
  type DisputeSettings,
  type FeatureSettings,
  type NotificationSettings,
  type OrganizationDetails,
  type SocialLink,
  type SubscriptionSettings,
  defaultCustomerEmailSettings,
  defaultCustomerPortalSettings,
  defaultDisputeSettings,
  defaultFeatureSettings,
  defaultNotificationSettings,
  defaultSubscriptionSettings,
} from './organization.settings.js';

export enum OrganizationStatus {
  CREATED = 'created',
  REVIEW = 'review',
  SNOOZED = 'snoozed',
  DENIED = 'denied',
  ACTIVE = 'active',
  BLOCKED = 'blocked',
  OFFBOARDING = 'offboarding',
  OFFBOARDED = 'offboarded',
}

export type TaxBehavior = 'location' | 'inclusive' | 'exclusive';

/** A merchant: the tenant every other resource belongs to. */
@Entity({ tableName: 'organizations', schema: 'identity' })
export class Organization {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text' }) name!: string;
  @Property({ type: 'text', unique: true }) slug!: string;
  @Property({ type: 'text', nullable: true }) avatarUrl: string | null = null;
  @Property({ type: 'text', nullable: true }) email: string | null = null;
  @Property({ type: 'text', nullable: true }) website: string | null = null;
  @Property({ type: 'json' }) socials: SocialLink[] = [];
  @Enum({ items: () => OrganizationStatus }) status: OrganizationStatus = OrganizationStatus.CREATED;
  @Property({ type: 'json', nullable: true }) details: OrganizationDetails | null = null;
  @Property({ type: 'timestamptz', nullable: true }) detailsSubmittedAt: Date | null = null;
  @Property({ type: 'text', nullable: true }) country: string | null = null;
  @Property({ type: 'text' }) defaultPresentmentCurrency = 'usd';
  @Property({ type: 'text' }) defaultTaxBehavior: TaxBehavior = 'location';
  /** Beyond Polar: the seller's legal identity and where it collects tax (docs/tax-settings.md). */
  @Property({ type: 'json' }) taxSettings: OrganizationTaxSettings = defaultTaxSettings();
  @Property({ type: 'json' }) featureSettings: FeatureSettings = defaultFeatureSettings();
  @Property({ type: 'json' }) subscriptionSettings: SubscriptionSettings = defaultSubscriptionSettings();
  @Property({ type: 'json' }) customerEmailSettings: CustomerEmailSettings = defaultCustomerEmailSettings();
  @Property({ type: 'json' }) customerPortalSettings: CustomerPortalSettings = defaultCustomerPortalSettings();
  @Property({ type: 'json' }) disputeSettings: DisputeSettings = defaultDisputeSettings();
  @Property({ type: 'json' }) notificationSettings: NotificationSettings = defaultNotificationSettings();
  @Property({ type: 'json' }) embedHosts: string[] = [];
  @Property({ type: 'boolean' }) embedHostsEnforced = false;
  @Property({ type: 'boolean' }) ssoEnforced = false;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
}
