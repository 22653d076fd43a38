import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { Address } from '../customers/customer.entity.js';
import { TaxAddressRequired } from '../tax/tax.errors.js';
import type {
  BuyerTaxProfile,
  SellerTaxProfile,
  TaxAddress,
  TaxBehavior,
  TaxBehaviorOption,
  TaxBreakdownItem,
  TaxCalculation,
  TaxCalculator,
  TaxEvidence,
  TaxId,
  TaxLineInput,
  VatIdCheck,
  VatIdVerifier,
} from '../tax/tax.contract.js';

/**
 * Tax applied to what billing sells (docs/tax.md#how-billing-applies-it): checkouts, renewals, plan
 * changes and the previews of them all go through `SaleTax`, built once per environment with the
 * calculator and the VAT-id verifier (tax/tax-setup.ts) and the organizations' tax settings.
 */

/** What billing knows of a seller to tax its sales, read once per request or job (never cached across them). */
export interface SellerTax {
  profile: SellerTaxProfile;
  /** The organization's `default_tax_behavior`; a price's own `tax_behavior` comes first. */
  defaultTaxBehavior: TaxBehaviorOption;
  /** What its invoices print as the seller: the legal name (else the organization's name), address, tax id. */
  legalName: string | null;
  legalAddress: TaxAddress | null;
}

/** An organization's tax settings, by id (identity's directory; none: it collects nothing). */
export type SellerTaxSource = (organizationId: string) => Promise<SellerTax>;

/** The buyer as a sale knows them: the billing address and tax id, and the VAT-id check when one was made. */
export interface SaleBuyer {
  address: Address | null;
  taxId: TaxId | null;
  vatIdCheck: VatIdCheck | null;
}

/** What an order keeps of its tax: the total, its behaviour, the breakdown, the evidence and each item's share. */
export interface OrderTax {
  taxAmount: bigint;
  taxBehavior: TaxBehavior | null;
  breakdown: TaxBreakdownItem[];
  evidence: TaxEvidence | null;
  /** One per order item, in the items' order. */
  itemTaxes: bigint[];
}

/** No tax at all (nothing computed): a free sale, or a renewal whose buyer has no usable address. */
export function untaxed(items: number): OrderTax {
  return { taxAmount: 0n, taxBehavior: null, breakdown: [], evidence: null, itemTaxes: new Array(items).fill(0n) };
}

/** A seller that collects nothing (no organization directory, or no country). */
export function notCollecting(organizationId: string): SellerTax {
  return {
    profile: { organizationId, country: null, taxId: null, registrations: [], stripeTaxEnabled: false },
    defaultTaxBehavior: 'location',
    legalName: null,
    legalAddress: null,
  };
}

/** An address as the calculator reads it (every key present). */
export function taxAddressOf(address: Address | null): TaxAddress | null {
  if (!address?.country) return null;
  return {
    line1: address.line1 ?? null,
    line2: address.line2 ?? null,
    postal_code: address.postal_code ?? null,
    city: address.city ?? null,
    state: address.state ?? null,
    country: address.country.toUpperCase(),
  };
}

/**
 * Why the buyer's address cannot be taxed yet, or null. A seller that collects needs the buyer's
 * country, and in the US and Canada also the state and postal code (Polar's required billing address
 * fields there); a seller that collects nothing needs no address. The calculator has its own needs
 * (a postal code where special territories exist…) and throws the same error.
 */
export function taxAddressIssue(seller: SellerTax, address: Address | null): TaxAddressRequired | null {
  if (!seller.profile.country) return null;
  if (!address?.country) return new TaxAddressRequired('address');
  if (['US', 'CA'].includes(address.country.toUpperCase())) {
    if (!address.state) return new TaxAddressRequired('state');
    if (!address.postal_code) return new TaxAddressRequired('postal_code');
  }
  return null;
}

/**
 * A tax the buyer's details do not allow yet: an address it cannot place (TaxAddressRequired), or
 * one Stripe Tax refused, or a tax id it refused (Polar's `TaxCalculationLogicalError`). Not a
 * technical failure: those are the calculator's to fall back from.
 */
export function isUntaxable(error: unknown): error is PolarRequestValidationError {
  return error instanceof PolarRequestValidationError;
}

/**
 * The calculator, the VAT-id verifier and the sellers' settings, together. `seller` is asked once per
 * request or job; every computation goes through `calculate`, so every order keeps the same evidence.
 */
export class SaleTax {
  constructor(
    readonly calculator: TaxCalculator,
    readonly vatIds: VatIdVerifier,
    private readonly sellers: SellerTaxSource,
  ) {}

  seller(organizationId: string): Promise<SellerTax> {
    return this.sellers(organizationId);
  }

  /** The VIES (or sandbox) check of an EU VAT id; other formats are not checked (null). */
  async checkVatId(taxId: TaxId | null, at: Date): Promise<VatIdCheck | null> {
    return taxId && taxId[1] === 'eu_vat' ? this.vatIds.check(taxId, at) : null;
  }

  /** The calculation of `lines` (amounts after discount) and the evidence an order keeps of it. */
  async calculate(
    seller: SellerTax,
    buyer: SaleBuyer,
    currency: string,
    lines: TaxLineInput[],
    at: Date,
  ): Promise<{ calculation: TaxCalculation; evidence: TaxEvidence }> {
    const profile: BuyerTaxProfile = {
      address: taxAddressOf(buyer.address),
      taxId: buyer.taxId,
      vatIdCheck: buyer.vatIdCheck,
    };
    const calculation = await this.calculator.calculate({
      seller: seller.profile,
      buyer: profile,
      currency,
      lines,
      at,
    });
    return {
      calculation,
      evidence: {
        provider: calculation.provider,
        processor_id: calculation.processorId,
        seller_country: seller.profile.country,
        buyer_country: profile.address?.country ?? null,
        buyer_postal_code: profile.address?.postal_code ?? null,
        buyer_tax_id: buyer.taxId,
        vat_id_check: buyer.vatIdCheck,
      },
    };
  }

  /**
   * An order's tax over its items (each one line, its amount after its share of the discount;
   * negative for a proration credit, whose tax is negative too). The buyer's EU VAT id is checked at
   * `at` unless a check is given. A seller that collects, with a buyer whose address cannot be taxed,
   * gets no tax and `onUntaxable` is told why (Polar's renewals: tax 0 with a warning).
   */
  async orderTax(
    seller: SellerTax,
    buyer: Omit<SaleBuyer, 'vatIdCheck'> & { vatIdCheck?: VatIdCheck | null },
    currency: string,
    lines: { amount: bigint; taxBehavior: TaxBehaviorOption }[],
    at: Date,
    onUntaxable: (issue: string) => void,
  ): Promise<OrderTax> {
    const issue = taxAddressIssue(seller, buyer.address);
    if (issue) {
      onUntaxable(issue.message);
      return untaxed(lines.length);
    }
    const vatIdCheck =
      buyer.vatIdCheck !== undefined
        ? buyer.vatIdCheck
        : seller.profile.country
          ? await this.checkVatId(buyer.taxId, at)
          : null;
    const keyed = lines.map((line, index) => ({ key: String(index), ...line }));
    try {
      const { calculation, evidence } = await this.calculate(seller, { ...buyer, vatIdCheck }, currency, keyed, at);
      return orderTaxOf(calculation, evidence, lines.length);
    } catch (error) {
      if (!isUntaxable(error)) throw error;
      onUntaxable(error.message);
      return untaxed(lines.length);
    }
  }
}

/** An order's tax from a calculation whose line keys are the items' positions. */
export function orderTaxOf(calculation: TaxCalculation, evidence: TaxEvidence, items: number): OrderTax {
  const byKey = new Map(calculation.lines.map(line => [line.key, line.tax]));
  return {
    taxAmount: calculation.taxAmount,
    taxBehavior: calculation.taxBehavior,
    breakdown: calculation.breakdown,
    evidence,
    itemTaxes: Array.from({ length: items }, (_, index) => byKey.get(String(index)) ?? 0n),
  };
}
