import type { OrganizationDirectory, OrganizationProfile } from '../../identity/contract.js';
import type { TaxAddress, TaxBehaviorOption, TaxRegistration } from '../tax/tax.contract.js';
import { notCollecting, type SellerTax, type SellerTaxSource } from './sale-tax.js';

interface SellerTaxSettingsShim {
  country: string | null;
  defaultTaxBehavior: TaxBehaviorOption;
  legalName: string | null;
  legalAddress: TaxAddress | null;
  taxId: string | null;
  registrations: TaxRegistration[];
  stripeTaxEnabled: boolean;
}

/**
 * THE one turn of an organization's profile (identity's directory) into what billing taxes its sales
 * with (docs/tax.md#how-billing-applies-it): its country (none: it collects nothing), its registrations
 * outside the EU, its VAT id, Stripe Tax, its default behaviour, and what its invoices print.
 */
export function sellerTaxOf(organizationId: string, profile: OrganizationProfile | null): SellerTax {
  // TEMPORARY until wt/tax-settings is merged: OrganizationProfile.tax.
  const tax = (profile as (OrganizationProfile & { tax?: SellerTaxSettingsShim }) | null)?.tax;
  if (!tax) return notCollecting(organizationId);
  return {
    profile: {
      organizationId,
      country: tax.country?.toUpperCase() ?? null,
      taxId: tax.taxId,
      registrations: tax.registrations ?? [],
      stripeTaxEnabled: tax.stripeTaxEnabled,
    },
    defaultTaxBehavior: tax.defaultTaxBehavior,
    legalName: tax.legalName ?? profile?.name ?? null,
    legalAddress: tax.legalAddress,
  };
}

/**
 * The sellers' settings read through the directory each time they are asked for (an organization's
 * PATCH applies to the next sale); callers ask once per request or job. No directory: nobody collects.
 */
export function sellerTaxFrom(directory: OrganizationDirectory | null): SellerTaxSource {
  return async organizationId =>
    directory ? sellerTaxOf(organizationId, await directory.profile(organizationId)) : notCollecting(organizationId);
}
