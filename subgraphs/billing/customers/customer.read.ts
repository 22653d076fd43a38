import { entityJson, type LazySql } from '../../../kit/database/read/entity-json.js';
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
