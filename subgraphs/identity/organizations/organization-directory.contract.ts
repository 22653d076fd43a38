import type { NotifiedOwner } from '../../../kit/email/owner-mailbox.js';
import type { RpcContract } from '../../../kit/http/signed-rpc.js';
import type { SellerTaxSettings } from '../../../kit/tax/tax-settings.js';
import type { CustomerEmailSettings, CustomerPortalSettings, ProrationBehavior } from './organization.settings.js';

/**
 * What other parts of the service may learn about an organization without a principal: its public
 * profile (the seller a customer sees: name, slug, avatar), its customer portal settings and whom to
 * e-mail about it. Billing names the seller in e-mails, enforces the portal settings, applies the
 * subscription settings (grace period, trial abuse, proration), taxes its sales as the seller's tax
 * settings say and addresses owner notifications with it; the portal pages find an organization by its slug. Plain JSON in and out: in-process when embedded, signed JSON RPC
 * (`ORGANIZATION_DIRECTORY_RPC`, served by the identity process) when distributed.
 */
export interface OrganizationProfile {
  id: string;
  name: string;
  slug: string;
  avatarUrl: string | null;
  /** Lower-case ISO 4217 (`default_presentment_currency`): the currency a tax summary answers in by default. */
  defaultPresentmentCurrency: string;
  customerPortalSettings: CustomerPortalSettings;
  /** Which e-mails its customers get (`customer_email_settings`; a key never stored reads as on, as Polar). */
  customerEmailSettings: CustomerEmailSettings;
  /** The subscription settings billing applies on identity's behalf. */
  billing: {
    /** Days a past-due subscription keeps its benefits (`benefit_revocation_grace_period`). */
    benefitRevocationGracePeriod: number;
    /** One trial per customer (by e-mail) per organization (`prevent_trial_abuse`). */
    preventTrialAbuse: boolean;
    /** How plan changes are charged (`proration_behavior`; `prorate` when never chosen). */
    prorationBehavior: ProrationBehavior;
    /** Beyond Polar: the behaviour of upgrades and of downgrades; null: `prorationBehavior`. */
    prorationBehaviorUpgrade: ProrationBehavior | null;
    prorationBehaviorDowngrade: ProrationBehavior | null;
  };
  /**
   * The feature switches billing enforces (`feature_settings`): seats (docs/customer-seats.md), draft
   * orders charged off-session (docs/selling.md#draft-orders).
   */
  features: { seatBasedPricingEnabled: boolean; memberModelEnabled: boolean; offSessionChargesEnabled: boolean };
  /** The seller's tax: its country (none: it collects no tax), default behaviour and tax settings (docs/tax-settings.md). */
  tax: SellerTaxSettings;
}

export interface OrganizationDirectory {
  /** The organization with this id, or null. */
  profile(id: string): Promise<OrganizationProfile | null>;
  /** The organization with this slug, or null. */
  profileBySlug(slug: string): Promise<OrganizationProfile | null>;
  /**
   * The e-mail addresses that speak for an owner: a user's own; an organization's owners and admins
   * (every member when it has neither); an address, itself (an invitation to join). Unknown owner: none.
   */
  recipients(owner: NotifiedOwner): Promise<string[]>;
  /** Every member's e-mail address (the sandbox delivers customer e-mails only to these). Unknown: none. */
  memberEmails(organizationId: string): Promise<string[]>;
}

export const ORGANIZATION_DIRECTORY_RPC: RpcContract<OrganizationDirectory> = {
  prefix: '/internal/organizations',
  methods: { profile: true, profileBySlug: true, recipients: true, memberEmails: true },
};
