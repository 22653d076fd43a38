import type { EntityManager } from '@mikro-orm/postgresql';
import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import { type ReadRow, runRead } from '../../../kit/database/read/execute.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import type { Customer } from '../customers/customer.entity.js';
import { customerJson } from '../customers/customer.read.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { Benefit } from './benefit.entity.js';
import { BenefitGrant } from './benefit-grant.entity.js';
import { BenefitGrantType, BenefitType } from './benefit.type.js';

export const benefitJson = (alias: string): LazySql => entityJson(Benefit, alias);

/** The live benefits of product `parent`, in the product's order (product.read.ts embeds them). */
export const embeddedProductBenefits =
  (parent: string): LazySql =>
  em =>
    `(select coalesce(json_agg(${benefitJson('pbb')(em)} order by pb.position), '[]'::json) from billing.product_benefits pb join billing.benefits pbb on pbb.id = pb.benefit_id and pbb.deleted_at is null where pb.product_id = ${parent}.id)`;

export interface BenefitReadFilters {
  ids?: string[];
  types?: string[];
  query?: string;
}

/** Live benefits, as lists and gets serve them: one statement per page. */
export const benefitRead = new ReadModel<BenefitReadFilters>({
  name: 'benefits',
  from: 'billing.benefits b',
  alias: 'b',
  readers: CORE_READERS,
  tenant: { organization: 'b.organization_id' },
  visible: 'b.deleted_at is null',
  select: { r: benefitJson('b') },
  filters: {
    ids: { where: 'b.id = any(?::uuid[])' },
    types: { where: 'b.type = any(?::text[])' },
    query: { where: 'b.description ilike ?', values: text => [containsPattern(text)] },
  },
  sorts: {
    created_at: { sql: 'b.created_at' },
    description: { sql: 'b.description' },
    type: { sql: 'b.type' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});

export function benefitFromRow(row: ReadRow): BenefitType {
  return BenefitType.fromEntity(row.r as Benefit);
}

export interface BenefitGrantReadFilters {
  benefitId?: string;
  customerIds?: string[];
  externalCustomerIds?: string[];
  isGranted?: boolean;
}

/** Grants with their customer and benefit (deleted benefits included: a revoked grant still names it). */
export const benefitGrantRead = new ReadModel<BenefitGrantReadFilters>({
  name: 'benefit_grants',
  from: 'billing.benefit_grants g',
  alias: 'g',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'g.organization_id', customer: 'g.customer_id' },
  select: {
    r: em => entityJson(BenefitGrant, 'g')(em),
    customer: em =>
      `(select ${customerJson('gc')(em)} from billing.customers gc where gc.id = g.customer_id and gc.organization_id = g.organization_id)`,
    benefit: em =>
      `(select ${benefitJson('gb')(em)} from billing.benefits gb where gb.id = g.benefit_id and gb.organization_id = g.organization_id)`,
  },
  filters: {
    benefitId: { where: 'g.benefit_id = ?' },
    customerIds: { where: 'g.customer_id = any(?::uuid[])' },
    externalCustomerIds: {
      where:
        'g.customer_id = any(array(select xc.id from billing.customers xc where xc.organization_id = any(?::uuid[]) and xc.external_id = any(?::text[])))',
      values: (externalIds, scope) => [scope.organizationIds, externalIds],
    },
    isGranted: {
      where: granted =>
        granted
          ? '(g.granted_at is not null and g.revoked_at is null)'
          : '(g.granted_at is null or g.revoked_at is not null)',
      values: () => [],
    },
  },
  sorts: {
    created_at: { sql: 'g.created_at' },
    granted_at: { sql: 'g.granted_at', nulls: 'last' },
    revoked_at: { sql: 'g.revoked_at', nulls: 'last' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});

export function benefitGrantFromRow(row: ReadRow): BenefitGrantType {
  return BenefitGrantType.fromEntity(row.r as BenefitGrant, row.customer as Customer, row.benefit as Benefit);
}

/** What narrows the benefits a signed-in person holds as a customer (each null when not asked for). */
export interface HeldBenefitFilters {
  types: string[] | null;
  organizationIds: string[] | null;
  orderIds: string[] | null;
  subscriptionIds: string[] | null;
}

/**
 * One page of the live benefits granted (and not revoked) to any live customer with this e-mail, in any
 * organization, newest first, each row with the total (`total`).
 */
export function benefitsHeldByEmail(
  em: EntityManager,
  email: string,
  filters: HeldBenefitFilters,
  limit: number,
  offset: number,
): Promise<ReadRow[]> {
  return runRead(
    em,
    `with held as (
         select distinct b.id, b.created_at from billing.benefit_grants g
         join billing.customers c on c.id = g.customer_id and c.deleted_at is null
         join billing.benefits b on b.id = g.benefit_id and b.deleted_at is null
         where lower(c.email) = lower($1::text) and g.granted_at is not null and g.revoked_at is null
           and ($2::text[] is null or b.type = any($2::text[]))
           and ($3::uuid[] is null or g.organization_id = any($3::uuid[]))
           and ($4::uuid[] is null or g.order_id = any($4::uuid[]))
           and ($5::uuid[] is null or g.subscription_id = any($5::uuid[])))
       select ${benefitJson('b')(em)} as r, count(*) over () as total
       from held h join billing.benefits b on b.id = h.id
       order by b.created_at desc, b.id limit $6 offset $7`,
    [email, filters.types, filters.organizationIds, filters.orderIds, filters.subscriptionIds, limit, offset],
  );
}

/** The live benefit `id` when a live customer with this e-mail holds a grant of it, else no row. */
export function benefitHeldByEmail(em: EntityManager, email: string, id: string): Promise<ReadRow[]> {
  return runRead(
    em,
    `select ${benefitJson('b')(em)} as r from billing.benefits b
       where b.id = $1::uuid and b.deleted_at is null and exists (
         select 1 from billing.benefit_grants g join billing.customers c on c.id = g.customer_id and c.deleted_at is null
         where g.benefit_id = b.id and lower(c.email) = lower($2::text) and g.granted_at is not null and g.revoked_at is null)`,
    [id, email],
  );
}
