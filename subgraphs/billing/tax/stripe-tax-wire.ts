import type { TaxabilityReason, TaxBehavior, TaxBreakdownItem, TaxCalculationRequest } from './tax.contract.js';

/*
 * Stripe Tax's calculations API on the wire (`POST /v1/tax/calculations`): the form the request is
 * sent as, and its answer read into our shapes. Only the fields this service uses.
 */

/** Stripe's tax code for electronically supplied services, the one Polar uses for everything it sells. */
export const DIGITAL_SERVICES_TAX_CODE = 'txcd_10000000';

export interface StripeCalculationLine {
  key: string;
  /** Zero or positive: Stripe taxes no negative amount (a credit is computed on its magnitude). */
  amount: bigint;
  behavior: TaxBehavior;
}

export interface StripeTaxRateDetails {
  country?: string | null;
  state?: string | null;
  percentage_decimal?: string | null;
  rate_type?: string | null;
  tax_type?: string | null;
  display_name?: string | null;
}

export interface StripeCalculation {
  id: string;
  tax_amount_exclusive: number;
  tax_amount_inclusive: number;
  line_items?: { data: { reference: string; amount: number; amount_tax: number; tax_behavior: TaxBehavior }[] };
  tax_breakdown: {
    amount: number;
    taxability_reason?: string | null;
    tax_rate_details?: StripeTaxRateDetails | null;
  }[];
}

/** The form body of one calculation: currency, the buyer's billing address and tax id, the lines. */
export function calculationForm(request: TaxCalculationRequest, lines: StripeCalculationLine[]): URLSearchParams {
  const form = new URLSearchParams();
  form.set('currency', request.currency.toLowerCase());
  const address = request.buyer.address!;
  const country = address.country.toUpperCase();
  // Stripe takes the subdivision without its country prefix: `US-CA` → `CA`.
  const state = address.state?.toUpperCase().replace(new RegExp(`^${country}-`), '') ?? null;
  const fields = { line1: address.line1, line2: address.line2, city: address.city, state };
  for (const [field, value] of Object.entries(fields))
    if (value) form.set(`customer_details[address][${field}]`, value);
  if (address.postal_code) form.set('customer_details[address][postal_code]', address.postal_code);
  form.set('customer_details[address][country]', country);
  form.set('customer_details[address_source]', 'billing');
  if (request.buyer.taxId) {
    form.set('customer_details[tax_ids][0][type]', request.buyer.taxId[1]);
    form.set('customer_details[tax_ids][0][value]', request.buyer.taxId[0]);
  }
  lines.forEach((line, i) => {
    form.set(`line_items[${i}][amount]`, line.amount.toString());
    form.set(`line_items[${i}][reference]`, line.key);
    form.set(`line_items[${i}][tax_behavior]`, line.behavior);
    form.set(`line_items[${i}][tax_code]`, DIGITAL_SERVICES_TAX_CODE);
  });
  form.set('expand[0]', 'line_items');
  return form;
}

/** Stripe's reasons that Polar's list names differently (Polar's list is what an order shows). */
const REASONS: Record<string, TaxabilityReason> = {
  standard_rated: 'standard_rated',
  reduced_rated: 'standard_rated',
  proportionally_rated: 'standard_rated',
  portion_standard_rated: 'standard_rated',
  portion_reduced_rated: 'standard_rated',
  reverse_charge: 'reverse_charge',
  not_collecting: 'not_collecting',
  not_subject_to_tax: 'not_subject_to_tax',
  zero_rated: 'not_subject_to_tax',
  excluded_territory: 'not_subject_to_tax',
  customer_exempt: 'customer_exempt',
  product_exempt: 'product_exempt',
  product_exempt_holiday: 'product_exempt',
  portion_product_exempt: 'product_exempt',
  not_supported: 'not_supported',
};

/**
 * One item of Stripe's `tax_breakdown`, or null when it names no rate (Polar skips those). Stripe
 * sometimes answers no reason (or `not_available`) although it taxed: standard-rated then, else
 * not collecting, as Polar reads it.
 */
export function breakdownItemOf(
  item: StripeCalculation['tax_breakdown'][number],
  sign: 1 | -1,
): TaxBreakdownItem | null {
  const details = item.tax_rate_details;
  if (!details?.rate_type) return null;
  const known = item.taxability_reason ? REASONS[item.taxability_reason] : undefined;
  return {
    rate_type: details.rate_type === 'flat_amount' ? 'fixed' : 'percentage',
    // Polar shows the fraction (0.19), Stripe the percentage ("19.0").
    rate: details.percentage_decimal != null ? Number(details.percentage_decimal) / 100 : null,
    display_name: displayNameOf(details),
    country: details.country ?? null,
    state: details.state ?? null,
    // Stripe bundles regional taxes (state and local) in one rate: no subdivision detail.
    subdivision: null,
    amount: sign * item.amount,
    taxability_reason: known ?? (item.amount !== 0 ? 'standard_rated' : 'not_collecting'),
  };
}

/** `vat` → `VAT`, `sales_tax` → `Sales Tax`, unless Stripe names the rate itself. */
function displayNameOf(details: StripeTaxRateDetails): string {
  if (details.display_name) return details.display_name;
  const type = details.tax_type;
  if (!type) return 'Tax';
  if (['gst', 'hst', 'igst', 'jct', 'pst', 'qst', 'rst', 'vat'].includes(type)) return type.toUpperCase();
  return type
    .split('_')
    .map(word => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}
