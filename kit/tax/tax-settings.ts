/**
 * The seller's side of tax as plain data (docs/tax-settings.md): what the identity subgraph
 * stores on an organization and hands to billing in its directory profile. Declared here, not in
 * billing's tax contract, so identity and billing share the shapes without importing each other;
 * `subgraphs/billing/tax/tax.contract.ts` re-exports them under the same names.
 */

/** A postal address as the service stores it (customers, checkouts, organizations). */
export interface TaxAddress {
  line1: string | null;
  line2: string | null;
  postal_code: string | null;
  city: string | null;
  state: string | null;
  country: string;
}

/** A place where the seller declared it is registered to collect tax outside the EU (US state, UK, Australia…). */
export interface TaxRegistration {
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
  /** Subdivision without country prefix (US state), or null for the whole country. */
  state: string | null;
  /** The rate in basis points (2000 = 20 %). */
  rate_basis_points: number;
  display_name: string;
}

/** The organization's `tax_settings` as stored and served (beyond Polar). */
export interface OrganizationTaxSettings {
  legal_name: string | null;
  legal_address: TaxAddress | null;
  /** The seller's own VAT/tax number as `[value, format]`, parsed against the organization's country. */
  tax_id: [string, string] | null;
  registrations: TaxRegistration[];
  /** Ask Stripe Tax instead of the built-in rules when Stripe is the processor. */
  stripe_tax_enabled: boolean;
}

export const defaultTaxSettings = (): OrganizationTaxSettings => ({
  legal_name: null,
  legal_address: null,
  tax_id: null,
  registrations: [],
  stripe_tax_enabled: false,
});

/** What billing learns of a seller's tax from the organization directory (`OrganizationProfile.tax`). */
export interface SellerTaxSettings {
  /** The organization's `country`; null: it collects no tax. */
  country: string | null;
  defaultTaxBehavior: 'location' | 'inclusive' | 'exclusive';
  legalName: string | null;
  legalAddress: TaxAddress | null;
  /** The tax id's value (`DE123456789`), without its format. */
  taxId: string | null;
  registrations: TaxRegistration[];
  stripeTaxEnabled: boolean;
}

/** Limits of the settings, shared by the REST schemas and the subgraph's checks. */
export const TAX_SETTINGS_LIMITS = {
  legalNameMaxLength: 256,
  registrationsMax: 100,
  rateBasisPointsMax: 10_000,
  displayNameMaxLength: 64,
} as const;
