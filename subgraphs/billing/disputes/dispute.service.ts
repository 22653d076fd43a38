import { pageWindow, paginationOf, type Pagination, type PageRequest } from '../../../kit/graphql/pagination.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { PaymentProcessor } from '../payments/payment-processor.js';
import { sortCriteria } from '../shared/sorting.js';
import { organizationNow } from '../time/organization-clocks.js';
import { DisputeNotOpenError } from './dispute.errors.js';
import { disputeRead, type DisputeReadFilters } from './dispute.read.js';
import { DisputeRepository } from './dispute.repository.js';
import { DISPUTE_DEFAULT_SORTING, DISPUTE_SORT_KEYS } from './dispute.sorting.js';
import { DisputeType } from './dispute.type.js';

export interface DisputeListQuery extends PageRequest, DisputeReadFilters {
  organizationId?: string[] | null;
  sorting?: string[] | null;
}

/**
 * Disputes (`/v1/disputes/`): list and get through the read path; `accept` concedes a dispute that needs a
 * response, at the processor, which settles it as lost (docs/disputes.md#accepting).
 */
export class DisputeService {
  constructor(private readonly payments: PaymentProcessor) {}

  async list(ctx: RequestContext, query: DisputeListQuery): Promise<{ items: DisputeType[]; pagination: Pagination }> {
    const { organizationId, sorting, page, limit, orderId, status } = query;
    const filters: DisputeReadFilters = {
      ...(orderId?.length ? { orderId } : {}),
      ...(status?.length ? { status } : {}),
    };
    const { rows, total } = await disputeRead.page(
      ctx.em,
      ctx.principal,
      filters,
      sortCriteria(sorting ?? [], DISPUTE_SORT_KEYS, DISPUTE_DEFAULT_SORTING),
      pageWindow({ page, limit }),
      { organizationIds: organizationId?.length ? organizationId : null },
    );
    return { items: rows.map(DisputeType.fromRow), pagination: paginationOf(total, limit) };
  }

  async get(ctx: RequestContext, id: string): Promise<DisputeType> {
    const row = await disputeRead.byId(ctx.em, ctx.principal, id);
    if (!row) throw new ResourceNotFound();
    return DisputeType.fromRow(row);
  }

  /**
   * Only `needs_response` can be conceded (409 `DisputeNotOpenError` otherwise). The row stays locked while the
   * processor closes the dispute, so a concurrent accept, or the processor's own event, waits and then sees it
   * closed.
   */
  async accept(ctx: RequestContext, id: string): Promise<DisputeType> {
    await this.get(ctx, id);
    await ctx.em.fork().transactional(async em => {
      const dispute = await new DisputeRepository(em).lock(id);
      if (dispute.status !== 'needs_response') throw new DisputeNotOpenError(dispute.id);
      const closed = await this.payments.closeDispute(dispute.processorId);
      dispute.status = closed.status;
      dispute.modifiedAt = await organizationNow(ctx, dispute.organizationId);
    });
    return this.get(ctx, id);
  }
}
