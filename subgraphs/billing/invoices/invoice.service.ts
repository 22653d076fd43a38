import { createHash } from 'node:crypto';
import { ResourceNotFound } from '../../../kit/errors.js';
import type { RequestContext } from '../../../kit/request-context.js';
import { tenantScope } from '../../../kit/database/tenant-scope.js';
import { loadForWrite } from '../../../kit/database/write/load-for-write.js';
import { runWrite } from '../events/run-write.js';
import { Order } from '../orders/order.entity.js';
import { orderEventPayload, orderUpdated } from '../orders/order.events.js';
import { orderRead } from '../orders/order.read.js';
import { OrderType } from '../orders/order.type.js';
import { organizationNow } from '../time/organization-clocks.js';
import type { InvoiceDocument, InvoiceParty } from './invoice.document.js';
import { invoiceTaxOf } from './invoice-tax.js';
import type { SaleTax, SellerTax } from '../orders/sale-tax.js';
import { OrderInvoice } from './invoice.entity.js';
import {
  InvalidInvoiceLink,
  InvoiceDoesNotExist,
  MissingInvoiceBillingDetails,
  OrderNotEligibleForInvoice,
} from './invoice.errors.js';
import type { InvoiceLinks } from './invoice.link.js';
import { renderInvoicePdf } from './invoice.pdf.js';
import { InvoiceRepository } from './invoice.repository.js';

/** Bumped when the rendering changes, so a regeneration renders again (Polar's INVOICE_TEMPLATE_VERSION). */
const TEMPLATE_VERSION = 2;

/**
 * Invoices of orders (docs/interface.md#endpoints, docs/interface.md#versioning): never generated automatically, only by `POST …/invoice`
 * (the Core API or the customer portal). The PDF is rendered with the seller's name from identity
 * (the `@requires` of `InvoiceGeneration.generated`), stored in `billing.order_invoices`, and served
 * through a signed link that expires in an hour (invoice.link.ts).
 */
export class InvoiceService {
  constructor(
    private readonly links: InvoiceLinks,
    /** The seller's legal name, address and tax id (docs/tax.md#invoices); absent: the organization's name only. */
    private readonly sale: SaleTax | null = null,
  ) {}

  /**
   * What `POST …/invoice` checks before anything happens, in Polar's order: the order readable (404),
   * not draft or void (409), with a billing name and address (422 `MissingInvoiceBillingDetails`).
   */
  async check(ctx: RequestContext, orderId: string): Promise<OrderType> {
    const row = await orderRead.byId(ctx.em, ctx.principal, orderId);
    if (!row) throw new ResourceNotFound();
    const order = OrderType.fromRow(row);
    eligible(order);
    return order;
  }

  /**
   * Renders and stores the invoice under the order's row lock, sets `is_invoice_generated` and records
   * `order.updated`, all in one transaction (billing's write frame: the order is loaded for write in the
   * order read path's scope). Nothing happens when the stored PDF was rendered from the same billing
   * details and seller (Polar's checksum): regenerating after an edit replaces it.
   */
  async generate(ctx: RequestContext, orderId: string, sellerName: string): Promise<void> {
    const { organizationId } = await this.check(ctx, orderId);
    const now = await organizationNow(ctx, organizationId);
    // Read once, before the lock: an organization PATCH since the last invoice changes the checksum.
    const sellerTax = this.sale ? await this.sale.seller(organizationId) : null;
    await runWrite(ctx.em, async em => {
      const invoices = new InvoiceRepository(em);
      const entity = await loadForWrite(em, Order, orderId, tenantScope(ctx.principal, orderRead.definition.readers), {
        tenant: { customer: 'customerId' },
      });
      // Read again under the lock: an edit that committed since the check is what gets printed.
      const [row] = await orderRead.byIdsIn(em, { organizationIds: [organizationId], customerId: null }, [orderId]);
      const order = OrderType.fromRow(row);
      eligible(order);
      const document = invoiceDocument(order, sellerOf(sellerName, sellerTax), buyerTaxIdOf(row.r as Order, order));
      const checksum = invoiceChecksum(order, document);
      const stored = await invoices.findOfOrder(orderId);
      if (stored?.checksum === checksum) return { result: undefined };
      const pdf = await renderInvoicePdf(document);
      if (stored) Object.assign(stored, { pdf, checksum, generatedAt: now });
      else em.create(OrderInvoice, { orderId, organizationId, pdf, checksum, generatedAt: now });
      entity.isInvoiceGenerated = true;
      entity.modifiedAt = now;
      // The payload is the order read back after the frame's flush, as the REST API would serve it.
      return {
        result: undefined,
        events: async (tx: typeof em) => [orderUpdated(entity, await orderEventPayload(tx, entity), now)],
      };
    });
  }

  /** `GET …/invoice`: a link to the stored PDF, valid for an hour; 404 `InvoiceDoesNotExist` before generation. */
  async link(ctx: RequestContext, orderId: string): Promise<string> {
    if (!(await orderRead.byId(ctx.em, ctx.principal, orderId))) throw new ResourceNotFound();
    const stored = await new InvoiceRepository(ctx.em.fork()).findOfOrder(orderId);
    if (!stored) throw new InvoiceDoesNotExist(orderId);
    return this.links.url(orderId, stored.checksum, ctx.clock.now());
  }

  /**
   * The PDF a signed link names, for anyone holding the link (it is the credential, as an S3 presigned
   * URL is). One row by primary key: the file is bytes, not a read model's JSON.
   */
  async file(ctx: RequestContext, orderId: string, expires: number, signature: string): Promise<Buffer> {
    const stored = await new InvoiceRepository(ctx.em.fork()).findOfOrderWithPdf(orderId);
    if (!stored || !this.links.verify(orderId, expires, signature, stored.checksum, ctx.clock.now()))
      throw new InvalidInvoiceLink();
    return Buffer.from(stored.pdf);
  }
}

function eligible(order: OrderType): void {
  if (order.status === 'draft' || order.status === 'void') throw new OrderNotEligibleForInvoice(order.id, order.status);
  if (!order.billingName || !order.billingAddress) throw new MissingInvoiceBillingDetails();
}

/** Over what the invoice prints that can change after the order: the billing details, the seller, the tax ids. */
function invoiceChecksum(order: OrderType, document: InvoiceDocument): string {
  return createHash('sha256')
    .update(
      JSON.stringify([
        TEMPLATE_VERSION,
        order.billingName,
        order.billingAddress,
        document.seller,
        document.buyer.taxId ?? null,
      ]),
    )
    .digest('hex');
}

/** The seller as its invoices name it: its legal name and address when set, else the organization's name. */
export function sellerOf(organizationName: string, tax: SellerTax | null): InvoiceParty {
  const address = tax?.legalAddress ?? null;
  return {
    name: tax?.legalName || organizationName,
    address: address && {
      line1: address.line1,
      line2: address.line2,
      postalCode: address.postal_code,
      city: address.city,
      state: address.state,
      country: address.country,
    },
    taxId: tax?.profile.taxId ?? null,
  };
}

/** The buyer's tax id the sale was taxed with (its evidence), else the customer's current one. */
function buyerTaxIdOf(stored: Order, order: OrderType): string | null {
  return stored.taxEvidence?.buyer_tax_id?.[0] ?? order.customer.taxId?.[0] ?? null;
}

/** The order as an invoice: its number, date, items, amounts and tax lines in its currency, both parties. */
export function invoiceDocument(order: OrderType, seller: InvoiceParty, buyerTaxId: string | null): InvoiceDocument {
  // An invoice always has both (eligible() checks); a receipt prints what there is (docs/receipts.md).
  const address = order.billingAddress;
  return {
    number: order.invoiceNumber ?? order.id,
    date: order.createdAt,
    currency: order.currency,
    seller,
    buyer: {
      name: order.billingName ?? order.customer.name ?? order.customer.email ?? '',
      address: address && {
        line1: address.line1,
        line2: address.line2,
        postalCode: address.postalCode,
        city: address.city,
        state: address.state,
        country: address.country,
      },
      email: order.customer.email,
      taxId: buyerTaxId,
    },
    lines: order.items.map(item => ({ label: item.label, amount: item.amount, proration: item.proration })),
    subtotal: order.subtotalAmount,
    discount: order.discountAmount,
    discountLabel: order.discount?.name ?? null,
    tax: order.taxAmount,
    ...invoiceTaxOf(order),
    total: order.totalAmount,
    appliedBalance: order.appliedBalanceAmount,
    due: order.dueAmount,
  };
}
