import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import type { InvoiceLinks } from '../invoices/invoice.link.js';
import { renderInvoicePdf } from '../invoices/invoice.pdf.js';
import { sellerOf } from '../invoices/invoice.service.js';
import type { SaleTax } from '../orders/sale-tax.js';
import { OrderRepository } from '../orders/order.repository.js';
import { orderRead } from '../orders/order.read.js';
import { OrderType } from '../orders/order.type.js';
import type { Payment } from '../payments/payment.entity.js';
import { PaymentRepository } from '../payments/payment.repository.js';
import { receiptDocument } from './receipt.document.js';
import { InvalidReceiptLink, ReceiptNotAllocated } from './receipt.errors.js';

/**
 * What a receipt link is signed over besides the order and the expiry: bumped when the rendering
 * changes. A receipt is rendered when its link is opened, never stored (docs/receipts.md): what it
 * prints (the order, its payment, its refunds) is all in billing's tables already.
 */
const RECEIPT_TEMPLATE = 'receipt-1';

/** Order receipts (docs/receipts.md): the link (Core API and portal) and the PDF behind it. */
export class ReceiptService {
  constructor(
    private readonly links: InvoiceLinks,
    private readonly sale: SaleTax | null = null,
  ) {}

  /** `GET …/receipt`: the order readable (404), with a receipt (404 `ReceiptNotAllocated`), a signed link. */
  async link(ctx: RequestContext, orderId: string): Promise<string> {
    const row = await orderRead.byId(ctx.em, ctx.principal, orderId);
    if (!row) throw new ResourceNotFound();
    if (!OrderType.fromRow(row).receiptNumber) throw new ReceiptNotAllocated(orderId);
    return this.links.url(orderId, RECEIPT_TEMPLATE, ctx.clock.now());
  }

  /**
   * The organization a signed link's order belongs to, for the gateway to fetch the seller's name
   * with; the link is checked first, so nothing is said of an order without one.
   */
  async sellerOf(ctx: RequestContext, orderId: string, expires: number, signature: string): Promise<string> {
    if (!this.links.verify(orderId, expires, signature, RECEIPT_TEMPLATE, ctx.clock.now()))
      throw new InvalidReceiptLink();
    // By primary key: the signature is the credential, as an S3 presigned link is.
    const organizationId = await new OrderRepository(ctx.em.fork()).organizationOf(orderId);
    if (!organizationId) throw new InvalidReceiptLink();
    return organizationId;
  }

  /** The receipt PDF, rendered now from the order, its latest successful payment and its refunds. */
  async file(
    ctx: RequestContext,
    orderId: string,
    expires: number,
    signature: string,
    sellerName: string,
  ): Promise<{ organizationId: string; pdf: Buffer }> {
    const organizationId = await this.sellerOf(ctx, orderId, expires, signature);
    const em = ctx.em.fork();
    const [row] = await orderRead.byIdsIn(em, { organizationIds: [organizationId], customerId: null }, [orderId]);
    const order = row ? OrderType.fromRow(row) : null;
    if (!order?.receiptNumber) throw new InvalidReceiptLink();
    const payment = await new PaymentRepository(em).latestOfOrder(orderId, 'succeeded');
    const sellerTax = this.sale ? await this.sale.seller(organizationId) : null;
    const document = receiptDocument(
      { ...order, receiptNumber: order.receiptNumber },
      sellerOf(sellerName, sellerTax),
      payment?.modifiedAt ?? payment?.createdAt ?? order.modifiedAt ?? order.createdAt,
      paymentLabel(payment),
    );
    return { organizationId, pdf: await renderInvoicePdf(document) };
  }
}

/** How the receipt names what paid: the card's brand and last digits when the processor gave them. */
function paymentLabel(payment: Payment | null): string {
  const { brand, last4 } = (payment?.methodMetadata ?? {}) as { brand?: unknown; last4?: unknown };
  const method = payment?.method ?? 'card';
  return typeof brand === 'string' && typeof last4 === 'string' ? `${method}, ${brand} ending in ${last4}` : method;
}
