import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import { Customer } from './customer.entity.js';

/** A customer row as JSON (its entity's property names), for its own list and for embedding. */
export const customerJson = (alias: string): LazySql => entityJson(Customer, alias);

/**
 * The customer of the row `parent` (deleted ones included: a subscription of a deleted customer still
 * shows it), within the parent's organization.
 */
export const embeddedCustomer =
  (parent: string): LazySql =>
  em =>
    `(select ${customerJson('c')(em)} from billing.customers c where c.id = ${parent}.customer_id and c.organization_id = ${parent}.organization_id)`;

export interface CustomerReadFilters {
  email?: string;
  query?: string;
  /** key → accepted values (text comparison, as Polar's `metadata[key]=value`). */
  metadata?: Record<string, readonly string[]>;
}

/**
 * Customers as lists and gets serve them (live ones; a customer session reads itself only). One
 * statement per page; `CustomerType.fromEntity` shapes each row.
 */
export const customerRead = new ReadModel<CustomerReadFilters>({
  name: 'customers',
  from: 'billing.customers c',
  alias: 'c',
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'c.organization_id', customer: 'c.id' },
  visible: 'c.deleted_at is null',
  select: { r: customerJson('c') },
  filters: {
    email: { where: 'lower(c.email) = lower(?)' },
    query: {
      where: '(c.email ilike ? or c.name ilike ? or c.external_id ilike ?)',
      values: text => {
        const pattern = containsPattern(text);
        return [pattern, pattern, pattern];
      },
    },
    metadata: {
      where: metadata =>
        Object.keys(metadata)
          .map(() => '(c.metadata ->> ?) = any(?::text[])')
          .join(' and '),
      values: metadata => Object.entries(metadata).flatMap(([key, values]) => [key, [...values]]),
    },
  },
  sorts: {
    created_at: { sql: 'c.created_at' },
    email: { sql: 'c.email' },
    name: { sql: 'c.name' },
  },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
