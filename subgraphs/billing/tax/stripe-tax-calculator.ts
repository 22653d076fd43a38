import { createHash } from 'node:crypto';
import type { Logger } from '../../../kit/logger.js';
import { resolveTaxBehavior } from './tax-behavior.js';
import type {
  TaxBreakdownItem,
  TaxCalculation,
  TaxCalculationRequest,
  TaxCalculator,
  TaxedLine,
} from './tax.contract.js';
import { TaxAddressRequired, TaxIdRefused, TaxLocationInvalid } from './tax.errors.js';
import {
  breakdownItemOf,
  calculationForm,
  type StripeCalculation,
  type StripeCalculationLine,
} from './stripe-tax-wire.js';

export interface StripeTaxOptions {
  secretKey: string;
  /** Stripe's API (config `STRIPE_API_URL`); `https://api.stripe.com` when absent. */
  apiUrl?: string | null;
  /** Who answers when Stripe cannot: the built-in rules. */
  fallback: TaxCalculator;
  fetch?: typeof fetch;
  /** A checkout waits for the answer: past this, Stripe is treated as unavailable. */
  timeoutMs?: number;
  logger?: Pick<Logger, 'warn'>;
}

/** Stripe could not answer (network, timeout, 5xx, 429, a request it refused for our own reasons). */
class StripeTaxUnavailable extends Error {}

/**
 * Tax from Stripe Tax's calculations API, in the same shapes as the built-in rules (docs/tax.md#stripe-tax).
 * A technical error falls back to the built-in rules with a warning, as Polar falls over its chain
 * of tax processors; Stripe's refusal of the buyer's address or tax id is the buyer's error (422).
 *
 * NOTE: Stripe taxes no negative amount. Credit lines (proration) go in a calculation of their own,
 * on their magnitudes, and come back negated, so a credit mirrors the same debit exactly.
 */
export class StripeTaxCalculator implements TaxCalculator {
  private readonly url: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: StripeTaxOptions) {
    this.url = `${(options.apiUrl ?? 'https://api.stripe.com').replace(/\/$/, '')}/v1/tax/calculations`;
    this.fetch = options.fetch ?? fetch;
  }

  async calculate(request: TaxCalculationRequest): Promise<TaxCalculation> {
    if (!request.buyer.address?.country) throw new TaxAddressRequired('address');
    if (request.lines.length === 0) return this.options.fallback.calculate(request);
    try {
      return await this.ask(request);
    } catch (error) {
      if (!(error instanceof StripeTaxUnavailable)) throw error;
      this.options.logger?.warn(
        { organizationId: request.seller.organizationId, reason: error.message },
        'Stripe Tax could not calculate: the built-in tax rules answered instead',
      );
      return this.options.fallback.calculate(request);
    }
  }

  private async ask(request: TaxCalculationRequest): Promise<TaxCalculation> {
    const buyerCountry = request.buyer.address!.country.toUpperCase();
    const lines = request.lines.map(line => ({
      key: line.key,
      amount: line.amount,
      behavior: resolveTaxBehavior(line.taxBehavior, buyerCountry),
    }));
    const debits = lines.filter(line => line.amount >= 0n);
    const credits = lines.filter(line => line.amount < 0n).map(line => ({ ...line, amount: -line.amount }));
    const taxed = new Map<string, TaxedLine>();
    const breakdown: TaxBreakdownItem[] = [];
    const ids: string[] = [];
    for (const [group, sign] of [
      [debits, 1],
      [credits, -1],
    ] as const) {
      if (group.length === 0) continue;
      const calculation = await this.post(request, group);
      ids.push(calculation.id);
      for (const line of linesOf(calculation, group, sign)) taxed.set(line.key, line);
      for (const item of calculation.tax_breakdown) addTo(breakdown, breakdownItemOf(item, sign));
    }
    const ordered = request.lines.map(line => taxed.get(line.key)!);
    const sum = (pick: (line: TaxedLine) => bigint) => ordered.reduce((total, line) => total + pick(line), 0n);
    return {
      provider: 'stripe_tax',
      processorId: ids.join(','),
      currency: request.currency,
      taxBehavior: lines[0]!.behavior,
      lines: ordered,
      netAmount: sum(l => l.net),
      taxAmount: sum(l => l.tax),
      totalAmount: sum(l => l.total),
      breakdown,
    };
  }

  private async post(request: TaxCalculationRequest, lines: StripeCalculationLine[]): Promise<StripeCalculation> {
    const body = calculationForm(request, lines).toString();
    let response: Response;
    try {
      response = await this.fetch(this.url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${this.options.secretKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          // The same question gets Stripe's stored answer when a request is repeated.
          'idempotency-key': createHash('sha256').update(`${request.seller.organizationId}\n${body}`).digest('hex'),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 5000),
      });
    } catch (error) {
      throw new StripeTaxUnavailable(`no answer: ${(error as { name?: string } | null)?.name ?? 'error'}`);
    }
    const answer = (await response.json().catch(() => null)) as (StripeCalculation & StripeError) | null;
    if (response.ok && answer?.id) return answer;
    throw refusalOf(response.status, answer, request);
  }
}

interface StripeError {
  error?: { type?: string; code?: string; param?: string; message?: string };
}

/** Stripe's 4xx about the buyer's address or tax id is theirs to fix; anything else is ours, or Stripe's. */
function refusalOf(status: number, answer: StripeError | null, request: TaxCalculationRequest): Error {
  const error = answer?.error;
  if (status >= 400 && status < 500 && status !== 429 && error) {
    if (error.code === 'customer_tax_location_invalid' || error.param?.startsWith('customer_details[address]'))
      return new TaxLocationInvalid(request.buyer.address);
    if (error.param?.startsWith('customer_details[tax_ids]')) return new TaxIdRefused(request.buyer.taxId?.[0] ?? null);
  }
  return new StripeTaxUnavailable(`HTTP ${status} ${error?.code ?? error?.type ?? ''}`.trim());
}

/** Stripe's line items, matched to ours by reference; `sign` -1 turns a credit's calculation back. */
function linesOf(calculation: StripeCalculation, group: StripeCalculationLine[], sign: 1 | -1): TaxedLine[] {
  const byReference = new Map((calculation.line_items?.data ?? []).map(item => [item.reference, item]));
  return group.map(line => {
    const item = byReference.get(line.key);
    if (!item) throw new StripeTaxUnavailable('line items missing from the answer');
    const tax = BigInt(item.amount_tax);
    const amount = BigInt(item.amount);
    const [net, total] = line.behavior === 'exclusive' ? [amount, amount + tax] : [amount - tax, amount];
    const s = BigInt(sign);
    return { key: line.key, net: s * net, tax: s * tax, total: s * total };
  });
}

/** Adds an item, or its amount to the item of the same rate and place already there. */
function addTo(breakdown: TaxBreakdownItem[], item: TaxBreakdownItem | null): void {
  if (!item) return;
  const same = breakdown.find(
    b =>
      b.rate === item.rate &&
      b.rate_type === item.rate_type &&
      b.country === item.country &&
      b.state === item.state &&
      b.display_name === item.display_name &&
      b.taxability_reason === item.taxability_reason,
  );
  if (same) same.amount += item.amount;
  else breakdown.push(item);
}
