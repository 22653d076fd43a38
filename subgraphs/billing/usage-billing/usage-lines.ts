import type { EntityManager } from '@mikro-orm/postgresql';
import { meteredAmount, meteredLabel, nonNegativeRunningSum, subtractDecimal } from '../../../kit/money/metered.js';
import type { Aggregation } from '../meters/meter-sql.js';
import type { NewOrderItem } from '../orders/create-order.js';
import { sql } from '../shared/sql.queries.js';
import { BillingEntryQueries } from './billing-entries.queries.js';
import { billUsageIn } from './usage-billing.job.js';
import { resetMeter } from './meter-credits.js';

/** What usage billing reads of a subscription. */
export interface MeteredSubscription {
  id: string;
  organizationId: string;
  customerId: string;
  priceIds: string[];
}

/** A metered price of a subscription with its meter, as the usage lines need them. */
export interface MeteredTerms {
  price_id: string;
  unit_amount: string;
  cap_amount: string | null;
  price_currency: string;
  meter_id: string;
  meter_name: string;
  aggregation: Aggregation;
}

/** One metered price's usage so far: what the line says and charges. */
export interface MeteredUsage {
  terms: MeteredTerms;
  consumed: string;
  credited: string;
  amount: bigint;
  label: string;
  /** The ingestion instant of the first pending entry: null when nothing is pending (no line, as Polar). */
  firstAt: Date | null;
}

/** The subscription's metered prices (each with its meter), in the subscription's order. */
export function meteredTermsOf(em: EntityManager, s: Pick<MeteredSubscription, 'priceIds' | 'organizationId'>) {
  return sql<MeteredTerms>(
    em,
    `select pp.id as price_id, pp.unit_amount::text as unit_amount, pp.cap_amount::text as cap_amount,
       pp.price_currency, m.id as meter_id, m.name as meter_name, m.aggregation
     from billing.product_prices pp join billing.meters m on m.id = pp.meter_id and m.organization_id = ?
     where pp.id = any(?::uuid[]) and pp.amount_type = 'metered_unit'
     order by array_position(?::uuid[], pp.id)`,
    [s.organizationId, s.priceIds, s.priceIds],
  );
}

/**
 * Each metered price's pending usage up to `cutoff` (docs/usage-billing.md#the-usage-line): consumed units are
 * the meter's aggregate over the pending entries' events (per meter: max, min, avg and unique cannot be added up
 * per price), credited units Polar's non-negative running sum of the pending credits, and the amount
 * `round_half_away(unit_amount × max(0, consumed − credited))` capped at `cap_amount`.
 */
export async function meteredUsage(
  em: EntityManager,
  s: Pick<MeteredSubscription, 'id' | 'priceIds' | 'organizationId'>,
  cutoff: Date,
): Promise<MeteredUsage[]> {
  const queries = new BillingEntryQueries(em);
  const usage: MeteredUsage[] = [];
  for (const terms of await meteredTermsOf(em, s)) {
    const { consumed, credits, firstAt } = await queries.pendingUsage(
      s.id,
      { id: terms.meter_id, aggregation: terms.aggregation },
      cutoff,
    );
    const credited = nonNegativeRunningSum(credits);
    const billable = subtractDecimal(consumed, credited);
    const cap = terms.cap_amount === null ? null : BigInt(terms.cap_amount);
    const uncapped = meteredAmount(terms.unit_amount, billable, null);
    const amount = cap !== null && uncapped > cap ? cap : uncapped;
    const label = `${terms.meter_name} — ${meteredLabel(terms.unit_amount, billable, cap, terms.price_currency, amount !== uncapped)}`;
    usage.push({ terms, consumed, credited, amount, label, firstAt });
  }
  return usage;
}

/**
 * The usage lines of a renewal order cut at `cutoff` (the period's end), in the renewal's transaction: the
 * billing job first catches up to the cutoff, then one line per metered price with pending usage.
 * `markBilled(orderId)` puts their entries on the order, so the next period starts from nothing.
 */
export async function usageLinesAt(
  em: EntityManager,
  s: MeteredSubscription,
  cutoff: Date,
): Promise<{ items: NewOrderItem[]; markBilled: (orderId: string) => Promise<void> }> {
  const metered = await meteredTermsOf(em, s);
  if (!metered.length) return { items: [], markBilled: async () => {} };
  await billUsageIn(em, s.organizationId, cutoff);
  const usage = (await meteredUsage(em, s, cutoff)).filter(u => u.firstAt !== null);
  return {
    items: usage.map(u => ({
      label: u.label,
      amount: u.amount,
      productPriceId: u.terms.price_id,
      startTimestamp: u.firstAt,
      endTimestamp: cutoff,
    })),
    markBilled: async orderId => {
      const queries = new BillingEntryQueries(em);
      for (const u of usage) await queries.markBilled(s.id, u.terms.meter_id, cutoff, orderId);
      // Polar resets the subscription's meters at each cycle, carrying over what rolls over.
      for (const meterId of new Set(metered.map(t => t.meter_id)))
        await resetMeter(em, { organizationId: s.organizationId, customerId: s.customerId, meterId, at: cutoff });
    },
  };
}
