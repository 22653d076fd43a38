import type { BillingContext } from '../context.js';
import type { ReceiptFileType } from './receipt.type.js';

/**
 * `ReceiptFile` with the seller's name from identity (the `@requires` of `pdf`): checks the link again
 * (it is the entity's key) and renders the receipt.
 */
export const receiptFileReference = {
  ReceiptFile: {
    __resolveReference: async (
      reference: { orderId: string; expires: number; signature: string; seller?: { name?: string | null } | null },
      ctx: BillingContext,
    ): Promise<ReceiptFileType> => {
      const { orderId, expires, signature } = reference;
      const sellerName = reference.seller?.name ?? '';
      const { organizationId, pdf } = await ctx.services.receipts.file(ctx, orderId, expires, signature, sellerName);
      return { orderId, expires, signature, seller: { id: organizationId }, pdf: pdf.toString('base64') };
    },
  },
};
