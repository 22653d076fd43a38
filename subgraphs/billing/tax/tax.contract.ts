/*
 * Tax: the shapes every part of the service shares (docs/tax.md). The calculator is pure over these
 * values; the checkout, the renewal engine, refunds, invoices and the reports read and store them.
 * Amounts are integer minor units of the calculation's currency (kit/money).
 */

import type { TaxAddress, TaxRegistration } from '../../../kit/tax/tax-settings.js';

// The seller's settings are declared in kit (identity stores them and must not import billing).
export type { TaxAddress, TaxRegistration };

/** How a price's amount relates to tax (Polar's `TaxBehaviorOption`): `location` decides by the buyer's country. */
export type TaxBehaviorOption = 'location' | 'inclusive' | 'exclusive';
/** What `location` resolves to for one buyer: exclusive in the US, Canada and India, inclusive elsewhere. */
export type TaxBehavior = 'inclusive' | 'exclusive';

/** Polar's taxability reasons, one per breakdown line. */
export type TaxabilityReason =
  | 'standard_rated'
  | 'reverse_charge'
  | 'not_collecting'
  | 'not_subject_to_tax'
  | 'customer_exempt'
  | 'product_exempt'
  | 'not_supported';

/** One rate's share of an order or checkout (Polar's `tax_breakdown[]` item). */
export interface TaxBreakdownItem {
  rate_type: 'percentage' | 'fixed';
  /** Percentage rates: the rate as a fraction, as Polar shows it (0.19 for 19 %); fixed: the amount. Null when no rate applied. */
  rate: number | null;
  display_name: string;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  /** ISO 3166-2 subdivision without the country prefix (`CA` for California), or null. */
  state: string | null;
  subdivision: string | null;
  /** Tax in minor units (negative on a credit line). */
  amount: number;
  taxability_reason: TaxabilityReason;
}

/** A tax id as Polar shows it: `[value, format]`, e.g. `["FR61954506077", "eu_vat"]`. */
export type TaxId = [string, string];

/** The answer of an EU VAT id check against VIES (or the sandbox's test ids). */
export interface VatIdCheck {
  /** `valid`/`invalid`: VIES answered; `inconclusive`: it could not (unavailable, timeout, member state down). */
  result: 'valid' | 'invalid' | 'inconclusive';
  /** `vies`, or `sandbox` for the documented test ids. */
  source: 'vies' | 'sandbox';
  checked_at: string;
  /** VIES's own request identifier or error code, kept as evidence. */
  reference: string | null;
  name: string | null;
  address: string | null;
}

/** What the calculator needs of the seller (the organization's tax settings). */
export interface SellerTaxProfile {
  organizationId: string;
  /** The organization's `country`; null: it collects no tax (`not_collecting`). */
  country: string | null;
  /** The seller's own VAT id, when set. */
  taxId: string | null;
  registrations: TaxRegistration[];
  /** Ask Stripe Tax instead of the built-in rules (only with Stripe as processor). */
  stripeTaxEnabled: boolean;
}

/** What the calculator needs of the buyer. */
export interface BuyerTaxProfile {
  address: TaxAddress | null;
  taxId: TaxId | null;
  /** The check of an EU VAT id, when one was made. */
  vatIdCheck: VatIdCheck | null;
}

/** One line to tax: its amount after discount (negative for a credit), with its behaviour option. */
export interface TaxLineInput {
  key: string;
  amount: bigint;
  taxBehavior: TaxBehaviorOption;
}

export interface TaxCalculationRequest {
  seller: SellerTaxProfile;
  buyer: BuyerTaxProfile;
  currency: string;
  lines: TaxLineInput[];
  /** When the sale happens (rates have effective dates). */
  at: Date;
}

/** A line after tax: `net + tax = total`; an inclusive line's `total` is its input amount exactly. */
export interface TaxedLine {
  key: string;
  net: bigint;
  tax: bigint;
  total: bigint;
}

export interface TaxCalculation {
  /** Which calculator answered: `built_in`, or `stripe_tax` (with its calculation id in `processorId`). */
  provider: 'built_in' | 'stripe_tax';
  processorId: string | null;
  currency: string;
  taxBehavior: TaxBehavior;
  lines: TaxedLine[];
  netAmount: bigint;
  taxAmount: bigint;
  totalAmount: bigint;
  breakdown: TaxBreakdownItem[];
}

/** What an order keeps of its tax computation, as evidence (`billing.orders.tax_evidence`). */
export interface TaxEvidence {
  provider: TaxCalculation['provider'];
  processor_id: string | null;
  seller_country: string | null;
  buyer_country: string | null;
  buyer_postal_code: string | null;
  buyer_tax_id: TaxId | null;
  vat_id_check: VatIdCheck | null;
}

/** Computes tax. The built-in rules are one implementation; Stripe Tax (with fallback) another. */
export interface TaxCalculator {
  calculate(request: TaxCalculationRequest): Promise<TaxCalculation>;
}

/** Checks an EU VAT id with VIES (configurable endpoint and timeout) or, in the sandbox, the test ids. */
export interface VatIdVerifier {
  check(taxId: TaxId, at: Date): Promise<VatIdCheck>;
}
