import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from './customer.entity.js';

/**
 * Where a customer's owner member is kept in step (docs/members.md#owner): implemented by the members
 * domain (members/owner-member.ts) and given to the customer services, so customers need not import it.
 */
export interface CustomerOwners {
  /** A new customer: its owner, in the same transaction. */
  added(em: EntityManager, customer: Customer, at: Date): void;
  /** The customer's e-mail changed: the owner follows (or is made). */
  emailChanged(em: EntityManager, customer: Customer, at: Date): Promise<void>;
}
