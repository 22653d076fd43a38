import type { EntityManager } from '@mikro-orm/postgresql';
import { runRead } from '../../../kit/database/read/execute.js';
import { numbered } from '../../../kit/database/read/read-model.js';
import { toBigInt, toDate } from '../../../kit/database/read/values.js';
import type { Customer } from '../customers/customer.entity.js';
import { customerJson } from '../customers/customer.read.js';
import { CustomerType } from '../customers/customer.type.js';
import { meterUnits } from '../customer-meters/customer-meter.units.js';
import type { Aggregation, Filter } from '../meters/meter-sql.js';
import type {
  CustomerStateBenefitGrantType,
  CustomerStateSubscriptionType,
  CustomerStateType,
} from './customer-state.js';

/**
 * One statement: the customer (live, in one of `organizationIds`) with its active subscriptions and
 * granted benefits. Inside a write's transaction it reads the write's own changes (the
 * `customer.state_changed` payload).
 */
export async function loadCustomerState(
  em: EntityManager,
  where: { id: string } | { externalId: string },
  organizationIds: readonly string[],
): Promise<CustomerStateType | null> {
  const condition = 'id' in where ? 'c.id = ?::uuid' : 'c.external_id = ?';
  const rows = await runRead(
    em,
    numbered(`select ${customerJson('c')(em)} as "customer",
       (select coalesce(json_agg(json_build_object('id', s.id, 'createdAt', s.created_at, 'modifiedAt', s.modified_at,
          'metadata', s.metadata, 'status', s.status, 'amount', s.amount, 'currency', s.currency,
          'recurringInterval', s.recurring_interval, 'currentPeriodStart', s.current_period_start,
          'currentPeriodEnd', s.current_period_end, 'trialStart', s.trial_start, 'trialEnd', s.trial_end,
          'cancelAtPeriodEnd', s.cancel_at_period_end, 'canceledAt', s.canceled_at, 'startedAt', s.started_at,
          'endsAt', s.ends_at, 'productId', s.product_id, 'discountId', s.discount_id, 'seats', s.seats) order by s.started_at, s.id), '[]'::json)
        from billing.subscriptions s where s.customer_id = c.id and s.organization_id = c.organization_id
          and s.status in ('active', 'trialing')) as "subscriptions",
       (select coalesce(json_agg(json_build_object('id', g.id, 'createdAt', g.created_at, 'modifiedAt', g.modified_at,
          'grantedAt', g.granted_at, 'benefitId', g.benefit_id, 'benefitType', b.type, 'benefitMetadata', b.metadata,
          'properties', g.properties) order by g.granted_at, g.id), '[]'::json)
        from billing.benefit_grants g join billing.benefits b on b.id = g.benefit_id
        where g.customer_id = c.id and g.organization_id = c.organization_id
          and g.granted_at is not null and g.revoked_at is null) as "grants",
       (select coalesce(json_agg(json_build_object('id', cm.id, 'createdAt', cm.created_at,
          'modifiedAt', cm.modified_at, 'meterId', m.id, 'filter', m.filter, 'aggregation', m.aggregation)
          order by cm.created_at, cm.id), '[]'::json)
        from billing.customer_meters cm join billing.meters m on m.id = cm.meter_id and m.organization_id = cm.organization_id
        where cm.customer_id = c.id and cm.organization_id = c.organization_id) as "meters"
     from billing.customers c
     where ${condition} and c.organization_id = any(?::uuid[]) and c.deleted_at is null
     limit 1`),
    ['id' in where ? where.id : where.externalId, [...organizationIds]],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    customer: CustomerType.fromEntity(row.customer as Customer),
    activeSubscriptions: (row.subscriptions as Record<string, unknown>[]).map(s => ({
      ...(s as unknown as CustomerStateSubscriptionType),
      createdAt: toDate(s.createdAt as string),
      modifiedAt: toDate(s.modifiedAt as string | null),
      amount: toBigInt(s.amount as number),
      currentPeriodStart: toDate(s.currentPeriodStart as string),
      currentPeriodEnd: toDate(s.currentPeriodEnd as string),
      trialStart: toDate(s.trialStart as string | null),
      trialEnd: toDate(s.trialEnd as string | null),
      canceledAt: toDate(s.canceledAt as string | null),
      startedAt: toDate(s.startedAt as string | null),
      endsAt: toDate(s.endsAt as string | null),
      units: null,
    })),
    grantedBenefits: (row.grants as Record<string, unknown>[]).map(g => ({
      ...(g as unknown as CustomerStateBenefitGrantType),
      createdAt: toDate(g.createdAt as string),
      modifiedAt: toDate(g.modifiedAt as string | null),
      grantedAt: toDate(g.grantedAt as string),
      benefitMetadata: (g.benefitMetadata ?? {}) as Record<string, string | number | boolean>,
      properties: (g.properties ?? {}) as Record<string, unknown>,
    })),
    activeMeters: await activeMeters(em, row.customer as Customer, row.meters as PairRow[]),
  };
}

interface PairRow {
  id: string;
  createdAt: string;
  modifiedAt: string | null;
  meterId: string;
  filter: Filter;
  aggregation: Aggregation;
}

/** Polar's `active_meters`: the customer's meters (oldest first), each with its units (customer-meter.units.ts). */
async function activeMeters(em: EntityManager, customer: Customer, pairs: PairRow[]) {
  const meters: CustomerStateType['activeMeters'] = [];
  for (const pair of pairs) {
    const units = await meterUnits(em, customer.organizationId, customer.id, {
      id: pair.meterId,
      filter: pair.filter,
      aggregation: pair.aggregation,
    });
    meters.push({
      id: pair.id,
      createdAt: toDate(pair.createdAt),
      modifiedAt: toDate(pair.modifiedAt),
      meterId: pair.meterId,
      consumedUnits: Number(units.consumed),
      creditedUnits: Number(units.credited),
      balance: Number(units.balance),
    });
  }
  return meters;
}
