import { DomainError } from '../../../kit/errors.js';
import { parseMajorUnits } from '../../../kit/money/format.js';
import { MANUAL_REFUND_REASONS } from '../../../subgraphs/billing/contract.js';
import { formatAmount, formatDate, siteLink } from '../portal/portal-format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  errorBox,
  formField,
  heading,
  html,
  type HtmlValue,
  ofThisOrganization,
  pageNumber,
  pager,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

const PAGE_SIZE = '20';

const STATUS: Record<string, string> = {
  paid: 'Paid',
  pending: 'Pending',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  draft: 'Draft',
  void: 'Void',
};

/** What was bought: Polar's description, else the product's name, else the first line's label. */
const describe = (order: Wire): string =>
  order.description ?? order.product?.name ?? order.items?.[0]?.label ?? 'Order';

/** An order's total, and after a refund (whole or part) the amount refunded beside it. */
export function orderAmount(order: Wire): HtmlValue {
  const total = formatAmount(order.total_amount, order.currency);
  return order.refunded_amount > 0
    ? html`${total} <span class="muted" data-refunded="${order.refunded_amount}">(${formatAmount(order.refunded_amount, order.currency)} refunded)</span>`
    : total;
}

/** Rows of orders, for the list and a customer's page. */
export function ordersTable(ctx: DashboardContext, orders: Wire[]): HtmlValue {
  if (!orders.length) return html`<p class="muted">No orders.</p>`;
  const base = `/dashboard/${ctx.organization.id}`;
  return html`<table><thead><tr><th>Date</th><th>Customer</th><th>Description</th><th>Status</th><th class="num">Amount</th></tr></thead><tbody>${orders.map(
    o =>
      html`<tr><td><a href="${base}/orders/${o.id}">${formatDate(o.created_at)}</a></td><td>${o.customer?.email ?? ''}</td><td>${describe(o)}</td><td>${STATUS[o.status] ?? o.status}</td><td class="num">${orderAmount(o)}</td></tr>`,
  )}</tbody></table>`;
}

/** `GET …/orders`: the organization's orders, newest first, a page at a time through `GET /v1/orders/`. */
async function listOrders(ctx: DashboardContext): Promise<void> {
  const page = pageNumber(ctx);
  const { items, pagination } = await ctx.call('orders:list', {
    query: { organization_id: ctx.organization.id, page: String(page), limit: PAGE_SIZE },
  });
  sendDashboard(ctx, {
    section: 'orders',
    title: 'Orders',
    body: html`${heading('Orders')}${ordersTable(ctx, items)}${pager(ctx, pagination, page)}`,
  });
}

/** `GET …/orders/:id`: the order, its lines, its invoice link and the refund form. */
async function showOrder(ctx: DashboardContext, form: { error?: string; status?: number } = {}): Promise<void> {
  const order: Wire = ofThisOrganization(
    ctx,
    await ctx.call('orders:get', { params: { id: ctx.req.params.id as string } }),
  );
  const base = `/dashboard/${ctx.organization.id}`;
  const refundable = order.status === 'paid' || order.status === 'partially_refunded';
  const left = order.refundable_amount ?? (order.net_amount ?? 0) - (order.refunded_amount ?? 0);
  const lines = (order.items ?? []).map(
    (item: Wire) => html`<tr><td>${item.label}</td><td>${formatAmount(item.amount, order.currency)}</td></tr>`,
  );
  const refundForm = refundable
    ? html`<h2>Refund</h2><div class="card">${errorBox(form.error)}<form class="stack" method="post" action="${base}/orders/${order.id}/refund">${csrfField(ctx.csrfToken)}
<div class="field"><label for="refund-amount">Amount (${String(order.currency).toUpperCase()}, before tax)</label><input id="refund-amount" type="text" inputmode="decimal" name="amount" value="${formField(ctx, 'amount')}" placeholder="${formatAmount(left, order.currency)} at most" required></div>
<div class="field"><label for="refund-reason">Reason</label><select id="refund-reason" name="reason">${MANUAL_REFUND_REASONS.map(
        r => html`<option value="${r}">${r.replace(/_/g, ' ')}</option>`,
      )}</select></div>
<div class="field"><label for="refund-comment">Comment</label><input id="refund-comment" type="text" name="comment" value="${formField(ctx, 'comment')}"></div>
<div><button type="submit" class="danger">Refund</button></div></form></div>`
    : form.error
      ? errorBox(form.error)
      : null;
  sendDashboard(ctx, {
    section: 'orders',
    title: 'Order',
    status: form.status,
    body: html`<p><a href="${base}/orders">← Orders</a></p>${heading(describe(order))}
<div class="card"><p>${formatDate(order.created_at)} · ${order.customer?.email ?? ''} · ${STATUS[order.status] ?? order.status}${order.invoice_number ? html` · invoice ${order.invoice_number}` : null}</p>
<table class="lines"><tbody>${lines}<tr class="total"><td>Total</td><td data-total>${orderAmount(order)}</td></tr></tbody></table>
<p><a href="${base}/orders/${order.id}/invoice">Invoice (PDF)</a></p></div>${refundForm}`,
  });
}

/** `POST …/orders/:id/refund`: `POST /v1/refunds/` with the amount (typed in major units) and reason. */
async function refundOrder(ctx: DashboardContext): Promise<void> {
  const id = ctx.req.params.id as string;
  const order: Wire = ofThisOrganization(ctx, await ctx.call('orders:get', { params: { id } }));
  const amount = parseMajorUnits(formField(ctx, 'amount'), order.currency);
  if (amount === null || amount <= 0n)
    return showOrder(ctx, { error: 'Give the amount to refund as a positive number, such as 5.00.', status: 422 });
  await whenRefused(
    async () => {
      const comment = formField(ctx, 'comment').trim();
      await ctx.call('refunds:create', {
        body: { order_id: id, amount: Number(amount), reason: formField(ctx, 'reason'), comment: comment || null },
      });
      redirectTo(ctx, `/orders/${id}`, 'refunded');
    },
    (error, status) => showOrder(ctx, { error, status }),
  );
}

const invoiceLink = async (ctx: DashboardContext, id: string) =>
  siteLink((await ctx.call('orders:invoice', { params: { id } }))?.url, ctx.deps.publicUrl);

/**
 * `GET …/orders/:id/invoice`: follows the API's signed link to the PDF; before the invoice exists, a
 * button whose post generates it (`POST /v1/orders/{id}/invoice`), as the portal's invoice page does.
 */
async function orderInvoice(ctx: DashboardContext): Promise<void> {
  const id = ctx.req.params.id as string;
  try {
    const url = await invoiceLink(ctx, id);
    if (url) return ctx.res.redirect(303, url);
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'InvoiceDoesNotExist') throw error;
  }
  const base = `/dashboard/${ctx.organization.id}`;
  sendDashboard(ctx, {
    section: 'orders',
    title: 'Invoice',
    body: html`<p><a href="${base}/orders/${id}">← Order</a></p>${heading('Invoice')}<div class="card"><p>The invoice of this order has not been prepared yet.</p><form method="post" action="${base}/orders/${id}/invoice">${csrfField(ctx.csrfToken)}<button type="submit">Prepare and download the invoice</button></form></div>`,
  });
}

async function generateInvoice(ctx: DashboardContext): Promise<void> {
  const id = ctx.req.params.id as string;
  await whenRefused(
    async () => {
      await ctx.call('orders:generate_invoice', { params: { id } });
      const url = await invoiceLink(ctx, id);
      if (!url) return showOrder(ctx, { error: 'The invoice is not ready yet. Try again shortly.', status: 409 });
      ctx.res.redirect(303, url);
    },
    (error, status) => showOrder(ctx, { error, status }),
  );
}

export const orderRoutes: DashboardRoute[] = [
  { method: 'get', path: '/orders', handler: listOrders },
  { method: 'get', path: '/orders/:id', handler: ctx => showOrder(ctx) },
  { method: 'post', path: '/orders/:id/refund', handler: refundOrder },
  { method: 'get', path: '/orders/:id/invoice', handler: orderInvoice },
  { method: 'post', path: '/orders/:id/invoice', handler: generateInvoice },
];
