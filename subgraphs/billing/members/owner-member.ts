import type { EntityManager } from '@mikro-orm/postgresql';
import type { Customer } from '../customers/customer.entity.js';
import type { CustomerOwners, OwnerFields } from '../customers/customer-owners.js';
import { CustomerType } from '../shared/enums.js';
import { Member } from './member.entity.js';
import { MemberRepository } from './member.repository.js';

/**
 * Every customer with an e-mail has an owner member (docs/members.md#owner): made with the customer
 * (its e-mail, name and external id) by each path that creates customers, and by the members migration
 * for the customers that existed before. Called again when a customer's e-mail changes: an individual
 * customer's owner follows it (a team's members keep their own addresses), and a customer that had no
 * e-mail gets its owner now. Runs in the caller's transaction; records no event, as Polar's does not.
 */
export async function ensureOwnerMember(em: EntityManager, customer: Customer, at: Date): Promise<void> {
  if (!customer.email) return;
  const owner = await new MemberRepository(em).findOwner(customer.id);
  if (!owner) {
    addOwnerMember(em, customer, at);
    return;
  }
  if (customer.type === CustomerType.INDIVIDUAL && owner.email !== customer.email) {
    owner.email = customer.email;
    owner.modifiedAt = at;
  }
}

/**
 * A new customer's owner, with no query (the customer may not be written yet): the creating paths call it.
 * `owner` (the create's `owner`) gives its e-mail, name and external id, each blank one the customer's.
 */
export function addOwnerMember(em: EntityManager, customer: Customer, at: Date, owner?: OwnerFields | null): void {
  const email = owner?.email.trim() || customer.email;
  if (!email) return;
  em.create(Member, {
    organizationId: customer.organizationId,
    customerId: customer.id,
    email,
    name: owner?.name || customer.name,
    externalId: owner?.externalId || customer.externalId,
    role: 'owner',
    createdAt: customer.createdAt ?? at,
  } as Member);
}

/** The customer services' hook (customers/customer-owners.ts). */
export const ownerMembers: CustomerOwners = { added: addOwnerMember, emailChanged: ensureOwnerMember };
