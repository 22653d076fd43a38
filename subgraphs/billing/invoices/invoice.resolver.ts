import { Arg, Ctx, Float, ID, Mutation, Query, Resolver } from 'type-graphql';
import { type AccessRule, authorize } from '../../../kit/graphql/authorize.js';
import type { BillingContext } from '../context.js';
import { CUSTOMER_PORTAL_READ } from '../customers/customer.access.js';
import { ORDERS_READ } from '../orders/order.access.js';
import { INVOICE_FILE } from './invoice.access.js';
import { InvoiceGenerationType, OrderInvoiceType } from './invoice.type.js';

/**
 * Invoices of orders: generate (Core API and customer portal; Polar asks only for the read scope),
 * the signed link, and the file behind the link (its signature is the credential).
 */
@Resolver(() => InvoiceGenerationType)
export class InvoiceResolver {
  @Mutation(() => InvoiceGenerationType, {
    description:
      "Generates (or regenerates) the order's invoice PDF. The checks run here; the PDF is rendered while `generated` resolves (it needs the seller's name from identity), so select it.",
  })
  generateOrderInvoice(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<InvoiceGenerationType> {
    return this.generate(ctx, id, ORDERS_READ);
  }

  @Mutation(() => InvoiceGenerationType, {
    description: "Generates the customer's order invoice PDF (select `generated`, as for generateOrderInvoice).",
  })
  generateCustomerPortalOrderInvoice(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<InvoiceGenerationType> {
    return this.generate(ctx, id, CUSTOMER_PORTAL_READ);
  }

  @Query(() => OrderInvoiceType, { description: "A link to the order's invoice PDF (after generation)." })
  async orderInvoice(@Ctx() ctx: BillingContext, @Arg('id', () => ID) id: string): Promise<OrderInvoiceType> {
    authorize(ctx.principal, ORDERS_READ);
    return { url: await ctx.services.invoices.link(ctx, id) };
  }

  @Query(() => OrderInvoiceType, { description: "A link to the customer's order invoice PDF." })
  async customerPortalOrderInvoice(
    @Ctx() ctx: BillingContext,
    @Arg('id', () => ID) id: string,
  ): Promise<OrderInvoiceType> {
    authorize(ctx.principal, CUSTOMER_PORTAL_READ);
    return { url: await ctx.services.invoices.link(ctx, id) };
  }

  @Query(() => String, { description: 'The invoice PDF a signed link names, base64.' })
  async invoiceFile(
    @Ctx() ctx: BillingContext,
    @Arg('orderId', () => ID) orderId: string,
    @Arg('expires', () => Float) expires: number,
    @Arg('signature') signature: string,
  ): Promise<string> {
    authorize(ctx.principal, INVOICE_FILE);
    return (await ctx.services.invoices.file(ctx, orderId, expires, signature)).toString('base64');
  }

  private async generate(ctx: BillingContext, id: string, rule: AccessRule): Promise<InvoiceGenerationType> {
    authorize(ctx.principal, rule);
    const order = await ctx.services.invoices.check(ctx, id);
    return { orderId: order.id, seller: { id: order.organizationId }, generated: false };
  }
}
