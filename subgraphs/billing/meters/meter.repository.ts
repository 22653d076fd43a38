import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../shared/sql.queries.js';
import { Meter } from './meter.entity.js';
import { type QuantitiesQuery, quantitiesSql } from './meter-sql.js';

export interface QuantityRow {
  timestamp: Date;
  quantity: number;
  total: number;
}

/**
 * Meters' own statements: the quantities (one statement, compiled by meter-sql.ts) and the two seams billing
 * fills in (docs/meters.md#seams-for-billing). Runs on the entity manager it is given, so inside its transaction.
 */
export class MeterRepository {
  constructor(private readonly em: EntityManager) {}

  quantities(query: Omit<QuantitiesQuery, 'table'>): Promise<QuantityRow[]> {
    const statement = quantitiesSql({ ...query, table: 'billing.usage_events' });
    return sql<QuantityRow>(this.em, statement.sql, statement.values);
  }

  /**
   * SEAM for billing: whether any of the meter's events has been billed. Today that is a row in
   * `billing.billing_entries` for the meter; the billing job writes those. When true, the meter's filter and
   * aggregation are frozen (Polar's 422 `forbidden`), since changing them would change what was already charged.
   */
  async hasBilledEvents(meterId: string): Promise<boolean> {
    const [row] = await sql<{ billed: boolean }>(
      this.em,
      'select exists(select 1 from billing.billing_entries where meter_id = ?::uuid) as billed',
      [meterId],
    );
    return row.billed;
  }

  /**
   * What keeps the meter from being archived, as Polar: a live metered price of a live product
   * (docs/usage-billing.md) or a live `meter_credit` benefit naming it.
   */
  async usedBy(meterId: string): Promise<'price' | 'benefit' | null> {
    const [row] = await sql<{ price: boolean; benefit: boolean }>(
      this.em,
      `select exists(select 1 from billing.product_prices pp join billing.products p on p.id = pp.product_id
         where pp.meter_id = ? and pp.amount_type = 'metered_unit' and pp.is_archived = false
           and p.is_archived = false and p.deleted_at is null) as price,
       exists(select 1 from billing.benefits b where b.type = 'meter_credit' and b.deleted_at is null
         and b.properties ->> 'meter_id' = ?::text) as benefit`,
      [meterId, meterId],
    );
    return row.price ? 'price' : row.benefit ? 'benefit' : null;
  }

  /** The meter if it is the organization's (null otherwise). */
  findOfOrganization(id: string, organizationId: string): Promise<Meter | null> {
    return this.em.findOne(Meter, { id, organizationId });
  }

  /** The organization's meters among `ids`. */
  findManyOfOrganization(ids: readonly string[], organizationId: string): Promise<Meter[]> {
    return this.em.find(Meter, { id: { $in: [...ids] }, organizationId });
  }

  /** Meters by id, whichever organization (the caller has scoped the ids). */
  findMany(ids: readonly string[]): Promise<Meter[]> {
    return this.em.find(Meter, { id: { $in: [...ids] } });
  }
}
