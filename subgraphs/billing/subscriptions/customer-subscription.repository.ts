import type { EntityManager } from '@mikro-orm/postgresql';
import { PORTAL_READERS, tenantScope } from '../../../kit/database/tenant-scope.js';
import type { Principal } from '../../../kit/principal.js';
import { Subscription } from './subscription.entity.js';

/**
 * The customer's own subscriptions, for the Customer Portal API. The scope is the customer session's
 * customer (and its organization): another customer's subscription is "not found", like another
 * tenant's in the core API. Only customer principals get anything.
 */
export class CustomerSubscriptionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The write path's lookup: the customer's own subscription (tenant-scope.ts), as a managed entity. */
  findReadable(principal: Principal, id: string): Promise<Subscription | null> {
    const scope = tenantScope(principal, PORTAL_READERS);
    if (!scope?.customerId) return Promise.resolve(null);
    return this.em.findOne(Subscription, {
      id,
      customerId: scope.customerId,
      organizationId: { $in: [...scope.organizationIds] },
    });
  }
}
