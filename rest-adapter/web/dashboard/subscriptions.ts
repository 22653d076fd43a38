import { SubscriptionStatus } from '../../../subgraphs/billing/contract.js';
import { formatDate, formatRecurring, subscriptionState } from '../portal/portal-format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  heading,
  html,
  type HtmlValue,
  pageNumber,
  pager,
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

const PAGE_SIZE = '20';
const STATUSES = Object.values(SubscriptionStatus) as string[];

/** Rows of subscriptions with their actions, for the list and a customer's page. */
export function subscriptionsTable(ctx: DashboardContext, subscriptions: Wire[]): HtmlValue {
  if (!subscriptions.length) return html`<p class="muted">No subscriptions.</p>`;
  const base = `/dashboard/${ctx.organization.id}/subscriptions`;
  const ended = (s: Wire) => s.status === 'canceled' || s.status === 'incomplete_expired';
  return html`<table><thead><tr><th>Customer</th><th>Product</th><th>Status</th><th>Price</th><th>Period ends</th><th>Actions</th></tr></thead><tbody>${subscriptions.map(
    s => html`<tr data-subscription="${s.id}"><td>${s.customer?.email ?? ''}</td><td><a href="${base}/${s.id}">${s.product?.name ?? 'Subscription'}</a></td>
<td>${subscriptionState(s).label}${s.cancel_at_period_end && !ended(s) ? html` <span class="muted">(ends at period end)</span>` : null}</td>
<td>${formatRecurring(s)}</td><td>${formatDate(s.current_period_end)}</td>
<td>${
      ended(s)
        ? null
        : html`${
            s.cancel_at_period_end
              ? null
              : html`<form class="inline" method="post" action="${base}/${s.id}/cancel">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Cancel at period end</button></form> `
          }<form class="inline" method="post" action="${base}/${s.id}/revoke">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Revoke now</button></form>`
    }</td></tr>`,
  )}</tbody></table>`;
}

/** `GET …/subscriptions?status=`: `GET /v1/subscriptions/` of the organization, filtered by status. */
async function listSubscriptions(ctx: DashboardContext, form: { error?: string; status?: number } = {}) {
  const page = pageNumber(ctx);
  const status = ctx.query('status');
  const chosen = status && STATUSES.includes(status) ? status : null;
  const { items, pagination } = await ctx.call('subscriptions:list', {
    query: {
      organization_id: ctx.organization.id,
      page: String(page),
      limit: PAGE_SIZE,
      ...(chosen ? { status: chosen } : {}),
    },
  });
  const filter = html`<form class="filters" method="get"><div class="field"><label for="status">Status</label><select id="status" name="status"><option value="">Any</option>${STATUSES.map(
    s => html`<option value="${s}"${s === chosen ? rawHtml(' selected') : null}>${s.replace(/_/g, ' ')}</option>`,
  )}</select></div><div><button type="submit">Filter</button></div></form>`;
  sendDashboard(ctx, {
    section: 'subscriptions',
    title: 'Subscriptions',
    status: form.status,
    body: html`${heading('Subscriptions', form.error)}${filter}${subscriptionsTable(ctx, items)}${pager(ctx, pagination, page)}`,
  });
}

/** An action on one subscription through its `/v1` operation; a refusal is shown on the list with the API's words. */
const act =
  (operationId: string, input: (id: string) => object, notice: string) =>
  (ctx: DashboardContext): Promise<void> =>
    whenRefused(
      async () => {
        const id = ctx.req.params.id as string;
        await ctx.call(operationId, { params: { id }, ...input(id) });
        redirectTo(ctx, '/subscriptions', notice);
      },
      (error, status) => listSubscriptions(ctx, { error, status }),
    );

export const subscriptionRoutes: DashboardRoute[] = [
  { method: 'get', path: '/subscriptions', handler: ctx => listSubscriptions(ctx) },
  {
    method: 'post',
    path: '/subscriptions/:id/cancel',
    handler: act('subscriptions:update', () => ({ body: { cancel_at_period_end: true } }), 'canceled'),
  },
  { method: 'post', path: '/subscriptions/:id/revoke', handler: act('subscriptions:revoke', () => ({}), 'revoked') },
];
