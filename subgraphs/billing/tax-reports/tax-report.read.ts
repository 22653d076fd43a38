import type { EntityManager } from '@mikro-orm/postgresql';
import { runRead } from '../../../kit/database/read/execute.js';
import { numbered } from '../../../kit/database/read/read-model.js';
import { toBigInt } from '../../../kit/database/read/values.js';
import type { TaxBreakdownItem } from '../tax/tax.contract.js';
import type { TaxedOrder } from './tax-report.js';

/** The orders a tax report counts: paid ones (refunded in part or whole too), never pending, draft or void. */
const COUNTED_STATUSES = ['paid', 'partially_refunded', 'refunded'];

/**
 * One statement: the paid orders of `organizationIds` created in `[from, to)` (either end open) that
 * carry a tax breakdown, with what the report needs of each. `organizationIds` is the caller's tenant
 * scope (kit/database/tenant-scope.ts), already narrowed to the request's `organization_id`.
 */
export async function taxedOrders(
  em: EntityManager,
  organizationIds: readonly string[],
  period: { from: Date | null; to: Date | null },
): Promise<TaxedOrder[]> {
  const rows = await runRead(
    em,
    numbered(`select o.id, o.currency, o.subtotal_amount - o.discount_amount as net_amount, o.tax_amount,
        o.refunded_amount, o.refunded_tax_amount, o.tax_breakdown
       from billing.orders o
      where o.organization_id = any(?::uuid[]) and o.status = any(?::text[])
        and jsonb_array_length(o.tax_breakdown) > 0
        and (?::timestamptz is null or o.created_at >= ?::timestamptz)
        and (?::timestamptz is null or o.created_at < ?::timestamptz)
      order by o.created_at, o.id`),
    [[...organizationIds], COUNTED_STATUSES, period.from, period.from, period.to, period.to],
  );
  return rows.map(row => ({
    id: row.id as string,
    currency: row.currency as string,
    netAmount: toBigInt(row.net_amount as string),
    taxAmount: toBigInt(row.tax_amount as string),
    refundedAmount: toBigInt(row.refunded_amount as string),
    refundedTaxAmount: toBigInt(row.refunded_tax_amount as string),
    breakdown: row.tax_breakdown as TaxBreakdownItem[],
  }));
}
