import { Arg, Ctx, Float, ID, Query, Resolver } from 'type-graphql';
import { authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { INVOICE_FILE } from '../invoices/invoice.access.js';
import { ORDERS_READ } from '../orders/order.access.js';
import { OrderReceiptType, ReceiptFileType } from './receipt.type.js';

/** Receipts of paid orders (docs/receipts.md): the signed link (Core API and portal) and the file behind it. */
@Resolver(() => ReceiptFileType)
export class ReceiptResolver {
  @Query(() => OrderReceiptType, { description: "A link to the order's receipt PDF (a paid order)." })
  async orderReceipt(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<OrderReceiptType> {
    authorize(ctx.principal, ORDERS_READ);
    return { url: await ctx.services.receipts.link(ctx, id) };
  }

  @Query(() => OrderReceiptType, { description: "A link to the receipt PDF of the customer's paid order." })
  async customerPortalOrderReceipt(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<OrderReceiptType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return { url: await ctx.services.receipts.link(ctx, id) };
  }

  @Query(() => ReceiptFileType, {
    description: 'The receipt a signed link names; select `pdf` (rendered with the seller’s name from identity).',
  })
  async receiptFile(
    @Ctx() ctx: BillingContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('expires', () => Float) expires: number,
    @Arg('signature') signature: string,
  ): Promise<ReceiptFileType> {
    // The same rule as the invoice file: anyone holding the link, its signature is the credential.
    authorize(ctx.principal, INVOICE_FILE);
    const organizationId = await ctx.services.receipts.sellerOf(ctx, orderId, expires, signature);
    return { orderId, expires, signature, seller: { id: organizationId }, pdf: null };
  }
}
