import { formatDate, formatUnits } from '../portal/portal-format.js';
import { ordersTable } from './orders.js';
import { subscriptionsTable } from './subscriptions.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  heading,
  html,
  type HtmlValue,
  ofThisOrganization,
  pageNumber,
  pager,
  sendDashboard,
  type Wire,
} from './section.js';

const PAGE_SIZE = '20';
/** The most grants and meters a customer's page lists (the API's page limit); the rest are read through the API. */
const HOLDINGS_LISTED = '100';

/** `GET …/customers?query=`: `GET /v1/customers/` of the organization, searched by e-mail or name. */
async function listCustomers(ctx: DashboardContext): Promise<void> {
  const page = pageNumber(ctx);
  const search = (ctx.query('query') ?? '').trim();
  const { items, pagination } = await ctx.call('customers:list', {
    query: {
      organization_id: ctx.organization.id,
      page: String(page),
      limit: PAGE_SIZE,
      ...(search ? { query: search } : {}),
    },
  });
  const base = `/dashboard/${ctx.organization.id}/customers`;
  const rows = items.length
    ? html`<table><thead><tr><th>E-mail</th><th>Name</th><th>Since</th></tr></thead><tbody>${items.map(
        (c: Wire) =>
          html`<tr><td><a href="${base}/${c.id}">${c.email}</a></td><td>${c.name ?? ''}</td><td>${formatDate(c.created_at)}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No customers${search ? ' match' : ''}.</p>`;
  sendDashboard(ctx, {
    section: 'customers',
    title: 'Customers',
    body: html`${heading('Customers')}<form class="filters" method="get" role="search"><div class="field"><label for="customer-query">Search</label><input id="customer-query" type="text" name="query" value="${search}" placeholder="E-mail or name"></div><div><button type="submit">Search</button></div></form>${rows}${pager(ctx, pagination, page)}`,
  });
}

/** The customer's benefit grants, granted or revoked (`benefit-grants:list`), with the benefit's description. */
function benefitsTable(grants: Wire[]): HtmlValue {
  if (!grants.length) return html`<p class="muted">No benefits granted.</p>`;
  return html`<table><thead><tr><th>Benefit</th><th>Type</th><th>State</th><th>Since</th></tr></thead><tbody>${grants.map(
    g =>
      html`<tr data-grant="${g.id}"><td>${g.benefit?.description ?? ''}</td><td>${g.benefit?.type ?? ''}</td><td>${
        g.is_revoked
          ? `Revoked ${formatDate(g.revoked_at)}`
          : g.is_granted
            ? 'Granted'
            : g.error
              ? html`<strong>Failed</strong>: ${g.error.message}`
              : 'Pending'
      }</td><td>${formatDate(g.granted_at ?? g.created_at)}</td></tr>`,
  )}</tbody></table>`;
}

/** The customer's meters (`customer_meters:list`): units consumed and credited since the last reset, and the balance. */
function metersTable(meters: Wire[]): HtmlValue {
  if (!meters.length) return html`<p class="muted">No usage or credits recorded.</p>`;
  return html`<table><thead><tr><th>Meter</th><th class="num">Consumed</th><th class="num">Credited</th><th class="num">Balance</th></tr></thead><tbody>${meters.map(
    m =>
      html`<tr data-customer-meter="${m.id}"><td>${m.meter?.name ?? ''}</td><td class="num" data-consumed="${m.consumed_units}">${formatUnits(m.consumed_units)}</td><td class="num" data-credited="${m.credited_units}">${formatUnits(m.credited_units)}</td><td class="num" data-balance="${m.balance}">${formatUnits(m.balance)}</td></tr>`,
  )}</tbody></table>`;
}

/**
 * `GET …/customers/:id`: the customer with their subscriptions, orders (first pages), benefits and meters,
 * and a portal link.
 */
async function showCustomer(ctx: DashboardContext, portalUrl?: string | null): Promise<void> {
  const id = ctx.req.params.id as string;
  const customer: Wire = ofThisOrganization(ctx, await ctx.call('customers:get', { params: { id } }));
  const scope = { organization_id: ctx.organization.id, customer_id: id, limit: '20' };
  const holdings = { organization_id: ctx.organization.id, customer_id: id, limit: HOLDINGS_LISTED };
  const [subscriptions, orders, grants, meters] = await Promise.all([
    ctx.call('subscriptions:list', { query: scope }),
    ctx.call('orders:list', { query: scope }),
    ctx.call('benefit-grants:list', { query: holdings }),
    ctx.call('customer_meters:list', { query: holdings }),
  ]);
  const base = `/dashboard/${ctx.organization.id}/customers`;
  const portal = portalUrl
    ? html`<p>Portal link for this customer (valid for a limited time; anyone holding it acts as the customer):</p><code class="secret" id="portal-link">${portalUrl}</code>`
    : html`<form method="post" action="${base}/${id}/portal">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Create a customer portal link</button></form>`;
  sendDashboard(ctx, {
    section: 'customers',
    title: customer.email,
    body: html`<p><a href="${base}">← Customers</a></p>${heading(customer.name || customer.email)}
<div class="card"><p>${customer.email} · customer since ${formatDate(customer.created_at)}${customer.external_id ? html` · external id <code>${customer.external_id}</code>` : null}</p>${portal}</div>
<h2>Subscriptions</h2>${subscriptionsTable(ctx, subscriptions.items)}
<h2>Orders</h2>${ordersTable(ctx, orders.items)}
<h2>Benefits</h2>${benefitsTable(grants.items)}
<h2>Meters</h2>${metersTable(meters.items)}`,
  });
}

/** `POST …/customers/:id/portal`: a customer session (`POST /v1/customer-sessions/`), whose portal URL is shown. */
async function createPortalLink(ctx: DashboardContext): Promise<void> {
  const id = ctx.req.params.id as string;
  ofThisOrganization(ctx, await ctx.call('customers:get', { params: { id } }));
  const session = await ctx.call('customer-sessions:create', { body: { customer_id: id } });
  await showCustomer(ctx, session.customer_portal_url);
}

export const customerRoutes: DashboardRoute[] = [
  { method: 'get', path: '/customers', handler: listCustomers },
  { method: 'get', path: '/customers/:id', handler: ctx => showCustomer(ctx) },
  { method: 'post', path: '/customers/:id/portal', handler: createPortalLink },
];
