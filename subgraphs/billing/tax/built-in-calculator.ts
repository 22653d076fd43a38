import { resolveTaxBehavior } from './tax-behavior.js';
import type {
  TaxBreakdownItem,
  TaxCalculation,
  TaxCalculationRequest,
  TaxCalculator,
  TaxedLine,
} from './tax.contract.js';
import { type LineAmounts, taxLine, untaxedLine } from './tax-amounts.js';
import { decideTax, fractionOf, type TaxDecision } from './tax-jurisdiction.js';

export { resolveTaxBehavior };

/**
 * The service's own tax rules (docs/tax.md#the-rules): EU VAT from the rates table, the seller's
 * declared registrations elsewhere, nothing where the seller does not collect. Pure: no I/O, the
 * VAT-id check comes in with the request.
 */
export class BuiltInTaxCalculator implements TaxCalculator {
  async calculate(request: TaxCalculationRequest): Promise<TaxCalculation> {
    return calculateBuiltIn(request);
  }
}

/** The same computation, synchronous, for callers that need no promise (and the Stripe fallback). */
export function calculateBuiltIn(request: TaxCalculationRequest): TaxCalculation {
  const decision = decideTax(request.seller, request.buyer, request.at);
  const buyerCountry = request.buyer.address?.country?.toUpperCase() ?? request.seller.country?.toUpperCase() ?? null;
  const lines: TaxedLine[] = request.lines.map(line => {
    const behavior = resolveTaxBehavior(line.taxBehavior, buyerCountry);
    return { key: line.key, ...amountsOf(line.amount, decision, behavior) };
  });
  const sum = (pick: (line: TaxedLine) => bigint) => lines.reduce((total, line) => total + pick(line), 0n);
  const taxAmount = sum(l => l.tax);
  return {
    provider: 'built_in',
    processorId: null,
    currency: request.currency,
    taxBehavior: resolveTaxBehavior(request.lines[0]?.taxBehavior ?? 'location', buyerCountry),
    lines,
    netAmount: sum(l => l.net),
    taxAmount,
    totalAmount: sum(l => l.total),
    breakdown: [breakdownItem(decision, taxAmount)],
  };
}

function amountsOf(amount: bigint, decision: TaxDecision, behavior: 'inclusive' | 'exclusive'): LineAmounts {
  return decision.basisPoints ? taxLine(amount, decision.basisPoints, behavior) : untaxedLine(amount);
}

/** One decision, one rate: the breakdown has one item, its amount the sum of the lines' rounded taxes. */
function breakdownItem(decision: TaxDecision, amount: bigint): TaxBreakdownItem {
  return {
    rate_type: 'percentage',
    rate: decision.basisPoints === null ? null : fractionOf(decision.basisPoints),
    display_name: decision.displayName,
    country: decision.country,
    state: decision.state,
    subdivision: null,
    amount: Number(amount),
    taxability_reason: decision.reason,
  };
}
