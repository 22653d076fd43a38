import type { BillingContext } from '../context.js';
import type { InvoiceGenerationType } from './invoice.type.js';

/**
 * `InvoiceGeneration` with the seller's name from identity (the `@requires` of `generated`): renders
 * and stores the invoice. The gateway only sends it within a planned `generate…Invoice` mutation
 * (subgraphs refuse requests that did not come through it), and the order is read again with the
 * caller's scope, so a representation names no order the caller may not see.
 */
export const invoiceGenerationReference = {
  InvoiceGeneration: {
    __resolveReference: async (
      reference: { orderId: string; seller?: { name?: string | null } | null },
      ctx: BillingContext,
    ): Promise<InvoiceGenerationType> => {
      const order = await ctx.services.invoices.check(ctx, reference.orderId);
      await ctx.services.invoices.generate(ctx, reference.orderId, reference.seller?.name ?? '');
      return { orderId: reference.orderId, seller: { id: order.organizationId }, generated: true };
    },
  },
};
