import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from './customer.entity.js';

/** `owner` of a customer's create (Polar's MemberOwnerCreate): each field overrides the customer's. */
export interface OwnerFields {
  email: string;
  name?: string | null;
  externalId?: string | null;
}

/**
 * Where a customer's owner member is kept in step (docs/members.md#owner): implemented by the members
 * domain (members/owner-member.ts) and given to the customer services, so customers need not import it.
 */
export interface CustomerOwners {
  /** A new customer: its owner (the given one, else made of the customer's fields), in the same transaction. */
  added(em: EntityManager, customer: Customer, at: Date, owner?: OwnerFields | null): void;
  /** The customer's e-mail changed: the owner follows (or is made). */
  emailChanged(em: EntityManager, customer: Customer, at: Date): Promise<void>;
}
