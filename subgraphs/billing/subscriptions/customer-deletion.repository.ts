import type { EntityManager } from '@mikro-orm/postgresql';
import { BILLABLE_STATUSES } from '../shared/enums.js';
import { Subscription } from './subscription.entity.js';

/** What deleting a customer reads of its subscriptions (customer-deletion.ts). */
export class CustomerDeletionRepository {
  constructor(private readonly em: EntityManager) {}

  /** The customer's billable subscriptions not yet ended, in id order (the order they are locked in). */
  billableOf(customerId: string): Promise<Subscription[]> {
    return this.em.find(
      Subscription,
      { customerId, status: { $in: [...BILLABLE_STATUSES] }, endedAt: null },
      { orderBy: { id: 'asc' } },
    );
  }
}
