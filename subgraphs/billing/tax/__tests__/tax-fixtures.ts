import type {
  BuyerTaxProfile,
  SellerTaxProfile,
  TaxAddress,
  TaxBehaviorOption,
  TaxCalculationRequest,
  TaxRegistration,
  VatIdCheck,
} from '../tax.contract.js';

/** Requests for the calculators' tests: a seller, a buyer, amounts. */
export const AT = new Date('2025-06-01T10:00:00Z');

export function seller(country: string | null, registrations: TaxRegistration[] = []): SellerTaxProfile {
  return { organizationId: 'org', country, taxId: null, registrations, stripeTaxEnabled: false };
}
export function address(country: string, postal_code: string | null = null, state: string | null = null): TaxAddress {
  return { line1: null, line2: null, city: null, postal_code, state, country };
}
export function check(result: VatIdCheck['result']): VatIdCheck {
  return { result, source: 'vies', checked_at: AT.toISOString(), reference: null, name: null, address: null };
}
export function buyer(
  addr: TaxAddress | null,
  taxId: string | null = null,
  vat: VatIdCheck | null = null,
): BuyerTaxProfile {
  return { address: addr, taxId: taxId ? [taxId, 'eu_vat'] : null, vatIdCheck: vat };
}
export function request(
  s: SellerTaxProfile,
  b: BuyerTaxProfile,
  amounts: bigint[],
  options: { behavior?: TaxBehaviorOption; currency?: string; at?: Date } = {},
): TaxCalculationRequest {
  return {
    seller: s,
    buyer: b,
    currency: options.currency ?? 'eur',
    at: options.at ?? AT,
    lines: amounts.map((amount, i) => ({ key: `line-${i}`, amount, taxBehavior: options.behavior ?? 'location' })),
  };
}

export const DE_SELLER = seller('DE');
export const PARIS = address('FR', '75001');
export const FR_VAT = 'FR61954506077';
