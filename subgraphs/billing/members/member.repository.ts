import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import type { TenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import type { Principal } from '../../../kit/principal.js';
import { Customer } from '../customers/customer.entity.js';
import { CustomerRepository } from '../customers/customer.repository.js';
import { Member } from './member.entity.js';
import { ambiguousExternalCustomerId } from './member.errors.js';

/** How a route names a customer, or a member of it: by id or by the merchant's external id. */
export type Ref = { id: string } | { externalId: string };

/** Every query of the members' write path; served reads go through `memberRead`. */
export class MemberRepository {
  constructor(private readonly em: EntityManager) {}

  /**
   * The live customer the caller may read, by id or external id, or null. An external id that names
   * customers of several of the caller's organizations is Polar's 409 (docs/members.md#merchant-api).
   */
  async findCustomer(principal: Principal, ref: Ref): Promise<Customer | null> {
    const customers = new CustomerRepository(this.em);
    if ('id' in ref) return customers.findReadable(principal, ref.id);
    const found = await customers.findAllReadableByExternalId(principal, ref.externalId, 2);
    if (found.length > 1) throw ambiguousExternalCustomerId();
    return found[0] ?? null;
  }

  /**
   * The live customer locked `for update` in the caller's scope: every change of a customer's members
   * takes this lock first, so two changes of one team (two ownership transfers) take turns.
   */
  lockCustomer(scope: TenantScope | null, customerId: string): Promise<Customer> {
    return loadForWrite(this.em, Customer, customerId, scope, {
      tenant: { customer: 'id' },
      where: { deletedAt: null },
    });
  }

  live(customerId: string): Promise<Member[]> {
    return this.em.find(Member, { customerId, deletedAt: null }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  findMember(customerId: string, ref: Ref): Promise<Member | null> {
    const by = 'id' in ref ? { id: ref.id } : { externalId: ref.externalId };
    return this.em.findOne(Member, { ...by, customerId, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  findByEmail(customerId: string, email: string): Promise<Member | null> {
    return this.em.findOne(Member, { customerId, deletedAt: null, email: { $ilike: escapeLike(email) } });
  }

  /** Written now: a change of owner must reach the one-owner index before the new owner does. */
  flush(): Promise<void> {
    return this.em.flush();
  }

  findOwner(customerId: string): Promise<Member | null> {
    return this.em.findOne(Member, { customerId, deletedAt: null, role: 'owner' });
  }
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, c => `\\${c}`);
}
