import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { formatAmount, formatDate } from './portal-format.js';
import { noticeBox } from './portal-layout.js';

type Wire = Record<string, any>;

const ORDER_STATUS: Record<string, string> = {
  pending: 'Pending',
  paid: 'Paid',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  void: 'Void',
};

/** The orders view; `invoices` when this server serves the portal's invoice route. */
export function ordersBody(items: Wire[], options: { base: string; invoices: boolean }): SafeHtml {
  if (!items.length) return html`<h1>Orders</h1><p class="muted">You have no orders.</p>`;
  return html`<h1>Orders</h1>
<table>
<thead><tr><th>Date</th><th>Product</th><th>Amount</th><th>Status</th>${options.invoices ? html`<th>Invoice</th>` : null}</tr></thead>
<tbody>${items.map(
    o =>
      html`<tr><td><time datetime="${o.created_at}">${formatDate(o.created_at)}</time></td><td>${o.product?.name ?? o.description ?? ''}</td><td>${amountCell(o)}</td><td>${ORDER_STATUS[o.status] ?? o.status}</td>${
        options.invoices
          ? html`<td>${o.paid ? html`<a href="${options.base}/orders/${o.id}/invoice">Invoice</a>` : html`<span class="muted">—</span>`}</td>`
          : null
      }</tr>`,
  )}</tbody>
</table>`;
}

/** The order's total; after a refund, part or whole, also the amount refunded. */
function amountCell(order: Wire): SafeHtml {
  const total = formatAmount(order.total_amount, order.currency);
  if (!order.refunded_amount) return html`${total}`;
  return html`${total}<div class="muted">${formatAmount(order.refunded_amount, order.currency)} refunded</div>`;
}

export interface BillingForm {
  billing_name?: string;
  line1?: string;
  line2?: string;
  postal_code?: string;
  city?: string;
  state?: string;
  country?: string;
  tax_id?: string;
}

/** The customer's billing details as the form shows them. */
export function billingFormOf(customer: Wire): BillingForm {
  const address = customer.billing_address ?? {};
  return {
    billing_name: customer.billing_name ?? '',
    line1: address.line1 ?? '',
    line2: address.line2 ?? '',
    postal_code: address.postal_code ?? '',
    city: address.city ?? '',
    state: address.state ?? '',
    country: address.country ?? '',
    tax_id: Array.isArray(customer.tax_id) ? (customer.tax_id[0] ?? '') : '',
  };
}

function input(id: keyof BillingForm, label: string, form: BillingForm): SafeHtml {
  return html`<div class="field"><label for="billing-${id}">${label}</label><input id="billing-${id}" type="text" name="${id}" value="${form[id] ?? ''}"></div>`;
}

/** The billing details form (name, address, tax id): posts to `/portal/<slug>/billing`. */
export function billingBody(options: {
  base: string;
  csrfToken: string;
  email: string | null;
  form: BillingForm;
  /** The organization lets its customers change their e-mail (`customer_portal_settings.customer`). */
  emailChange?: boolean;
  notice?: string | null;
  error?: string | null;
}): SafeHtml {
  const { form } = options;
  return html`<h1>Billing details</h1>
${noticeBox(options.notice)}${errorBox(options.error)}
<div class="card">
${options.email ? html`<p class="muted">Receipts go to <strong>${options.email}</strong>.</p>` : null}
<form class="stack" method="post" action="${options.base}/billing">
${csrfField(options.csrfToken)}
${input('billing_name', 'Billing name', form)}
${input('line1', 'Address', form)}
${input('line2', 'Address (line 2)', form)}
<div class="grid2">${input('postal_code', 'Postal code', form)}${input('city', 'City', form)}</div>
<div class="grid2">${input('state', 'State or region', form)}${input('country', 'Country (two-letter code, e.g. US)', form)}</div>
${input('tax_id', 'Tax ID', form)}
<button type="submit">Save billing details</button>
</form>
</div>
${options.emailChange ? emailChangeForm(options.base, options.csrfToken) : null}`;
}

/** Asks for a new address: a link to confirm it goes there (portal-email-update.ts). */
function emailChangeForm(base: string, csrfToken: string): SafeHtml {
  return html`<div class="card">
<form class="stack" method="post" action="${base}/email">
${csrfField(csrfToken)}
<div class="field"><label for="portal-new-email">New e-mail address</label><input id="portal-new-email" type="email" name="email" autocomplete="email" required></div>
<button type="submit">Change e-mail</button>
</form>
</div>`;
}
