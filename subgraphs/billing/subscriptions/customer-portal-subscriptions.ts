import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { ResourceNotFound, Unauthorized } from '../../../kit/errors.js';
import { pageWindow, paginationOf, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { Principal } from '../../../kit/principal.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { ACTIVE_STATUSES } from '../shared/enums.js';
import { findPage } from '../shared/repository.js';
import { Subscription } from './subscription.entity.js';
import type { CustomerSubscriptionCancelInput } from './subscription.inputs.js';
import * as transitions from './subscription.transitions.js';
import { mutateSubscription, reasonOf, type SubscriptionMutationDependencies } from './update-subscription.js';

/**
 * The customer's own subscriptions, for the Customer Portal API. The scope is the customer session's
 * customer (and its organization): another customer's subscription is "not found", like another
 * tenant's in the core API. Only customer principals get anything.
 */
export class CustomerSubscriptionRepository {
  constructor(private readonly em: EntityManager) {}

  readableFilter(principal: Principal): FilterQuery<Subscription> | null {
    if (principal.subject !== 'customer' || !principal.subjectId) return null;
    const filter: Record<string, unknown> = { customerId: principal.subjectId };
    if (principal.organizationIds.length) filter.organizationId = { $in: principal.organizationIds };
    return filter as FilterQuery<Subscription>;
  }

  findReadable(principal: Principal, id: string): Promise<Subscription | null> {
    const filter = this.readableFilter(principal);
    if (!filter) return Promise.resolve(null);
    return this.em.findOne(Subscription, { $and: [filter, { id }] });
  }

  list(
    principal: Principal,
    filters: CustomerSubscriptionFilters,
    window: { limit: number; offset: number },
    descending: boolean,
  ): Promise<[Subscription[], number]> {
    const filter = this.readableFilter(principal);
    if (!filter) return Promise.resolve([[], 0]);
    const and: FilterQuery<Subscription>[] = [filter];
    if (filters.productId?.length) and.push({ productId: { $in: filters.productId } });
    if (filters.active != null) and.push({ status: { [filters.active ? '$in' : '$nin']: [...ACTIVE_STATUSES] } });
    const direction = descending ? 'desc' : 'asc';
    return findPage(
      this.em,
      Subscription,
      { $and: and },
      [{ startedAt: `${direction} nulls last` as 'desc' }, { id: direction }],
      window,
    );
  }
}

export interface CustomerSubscriptionFilters {
  productId?: string[] | null;
  active?: boolean | null;
}

export interface CustomerSubscriptionListQuery extends PageRequest, CustomerSubscriptionFilters {
  sorting?: string[] | null;
}

/**
 * Customer Portal subscriptions: list and get the customer's own, cancel at period end (PATCH
 * `cancel_at_period_end: true` or DELETE) and uncancel (`cancel_at_period_end: false`), with the core
 * API's rules, lock and events.
 */
export class CustomerPortalSubscriptions {
  constructor(private readonly deps: SubscriptionMutationDependencies) {}

  async list(ctx: RequestContext, query: CustomerSubscriptionListQuery) {
    assertCustomer(ctx);
    const window = pageWindow(query);
    const sorting = query.sorting?.[0] ?? '-started_at';
    const [items, total] = await new CustomerSubscriptionRepository(ctx.em).list(
      ctx.principal,
      query,
      window,
      sorting.startsWith('-'),
    );
    return { items, pagination: paginationOf(total, query.limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<Subscription> {
    assertCustomer(ctx);
    const subscription = await new CustomerSubscriptionRepository(ctx.em).findReadable(ctx.principal, id);
    if (!subscription) throw new ResourceNotFound();
    return subscription;
  }

  /** PATCH with `CustomerSubscriptionCancel`; no `cancel_at_period_end` is a no-op. */
  async update(ctx: RequestContext, id: string, input: CustomerSubscriptionCancelInput): Promise<Subscription> {
    assertCustomer(ctx);
    if (input.cancelAtPeriodEnd == null) return this.get(ctx, id);
    return mutateSubscription(
      ctx,
      this.deps,
      em => new CustomerSubscriptionRepository(em).findReadable(ctx.principal, id),
      async (_em, s, now) =>
        input.cancelAtPeriodEnd
          ? transitions.cancelAtPeriodEnd(
              s,
              { reason: reasonOf(input.cancellationReason), comment: input.cancellationComment ?? null },
              now,
            )
          : transitions.uncancel(s, now),
    );
  }

  /** DELETE: cancel at the end of the period (the customer portal never revokes at once here). */
  cancel(ctx: RequestContext, id: string): Promise<Subscription> {
    return this.update(ctx, id, { cancelAtPeriodEnd: true });
  }
}

/** Only a customer session has subscriptions here (the resolvers' rule says so too). */
function assertCustomer(ctx: RequestContext): void {
  if (ctx.principal.subject !== 'customer' || !ctx.principal.subjectId) throw new Unauthorized();
}
