import type { RequestContext } from '../../../kit/request-context.js';
import { createDraftOrder, type DraftOrderDeps, type DraftOrderInput } from './draft-order.js';
import { finalizeOrder, type OrderFinalizeDeps } from './draft-order-finalize.js';
import type { OrderType } from '../orders/order.type.js';

/** A merchant's draft orders: create, then finalize (charge off-session) (docs/selling.md#draft-orders). */
export class DraftOrderService {
  constructor(private readonly deps: DraftOrderDeps & OrderFinalizeDeps) {}

  create(ctx: RequestContext, input: DraftOrderInput): Promise<OrderType> {
    return createDraftOrder(ctx, this.deps, input);
  }

  finalize(ctx: RequestContext, id: string, paymentMethodId: string | null): Promise<OrderType> {
    return finalizeOrder(ctx, this.deps, id, paymentMethodId);
  }
}
