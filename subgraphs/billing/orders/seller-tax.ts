import type { OrganizationDirectory, OrganizationProfile } from '../../identity/contract.js';
import { notCollecting, type SellerTax, type SellerTaxSource } from './sale-tax.js';

/**
 * THE one turn of an organization's profile (identity's directory) into what billing taxes its sales
 * with (docs/tax.md#how-billing-applies-it): its country (none: it collects nothing), its registrations
 * outside the EU, its VAT id, Stripe Tax, its default behaviour, and what its invoices print.
 */
export function sellerTaxOf(organizationId: string, profile: OrganizationProfile | null): SellerTax {
  const tax = profile?.tax;
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
