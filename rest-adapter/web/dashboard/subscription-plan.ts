import {
  formatAmount,
  formatDate,
  formatProductPrice,
  formatRecurring,
  subscriptionState,
} from '../portal/portal-format.js';
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
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

/** Polar's proration behaviours; '' leaves the organization's own (`subscription_settings`). */
export const PRORATION_BEHAVIORS: readonly [string, string][] = [
  ['invoice', 'Invoice the difference now'],
  ['prorate', 'Prorate on the next invoice'],
  ['next_period', 'Change at the next period'],
  ['reset', 'Start a new period now'],
];

interface PlanForm {
  error?: string;
  status?: number;
}

/** The chosen product and proration of the form (query for the preview, body for the change). */
function choice(ctx: DashboardContext, from: 'query' | 'body'): { product_id: string; proration_behavior?: string } {
  const read = (name: string) => (from === 'query' ? (ctx.query(name) ?? '') : formField(ctx, name));
  const proration = read('proration_behavior');
  return { product_id: read('product_id'), ...(proration ? { proration_behavior: proration } : {}) };
}

/**
 * The chosen seats and proration of the seats form, as `SubscriptionUpdateSeats` takes them (its own
 * alternative: seats never travel with a product). Digits go as a number; anything else goes as typed, so the
 * API's 422 says what is wrong. Null when no seats were given.
 */
function seatsChoice(ctx: DashboardContext, from: 'query' | 'body'): Record<string, unknown> | null {
  const read = (name: string) => (from === 'query' ? (ctx.query(name) ?? '') : formField(ctx, name));
  const typed = read('seats').trim();
  if (!typed) return null;
  const proration = read('proration_behavior');
  return {
    seats: /^\d+$/.test(typed) ? Number(typed) : typed,
    ...(proration ? { proration_behavior: proration } : {}),
  };
}

/** Whether the subscription is billed per seat (its seats are set, or one of its prices is a seat price). */
const perSeat = (s: Wire) => s.seats != null || (s.prices ?? []).some((p: Wire) => p.amount_type === 'seat_based');

/** The preview's order lines and totals, formatted by kit/money, and the confirming form (plan or seats). */
function previewCard(
  ctx: DashboardContext,
  s: Wire,
  preview: Wire,
  chosen: Record<string, unknown>,
  confirm: { action: 'change-plan' | 'change-seats'; label: string },
): HtmlValue {
  const money = (amount: number) => formatAmount(amount, preview.currency);
  const lines: Wire[] = preview.items ?? [];
  return html`<h2>Preview</h2><div class="card" data-preview><table class="lines"><tbody>${
    lines.length
      ? lines.map(
          i =>
            html`<tr data-line><td>${i.label}${i.proration ? html` <span class="muted">(prorated)</span>` : null}</td><td class="num" data-amount="${i.amount}">${money(i.amount)}</td></tr>`,
        )
      : html`<tr><td class="muted">Nothing to bill for this change.</td><td></td></tr>`
  }
<tr><td>Subtotal</td><td class="num" data-subtotal="${preview.subtotal_amount}">${money(preview.subtotal_amount)}</td></tr>
${preview.discount_amount ? html`<tr><td>Discount</td><td class="num">−${money(preview.discount_amount)}</td></tr>` : null}
${preview.tax_amount ? html`<tr><td>Tax</td><td class="num">${money(preview.tax_amount)}</td></tr>` : null}
<tr class="total"><td>Total</td><td class="num" data-total="${preview.total_amount}">${money(preview.total_amount)}</td></tr>
</tbody></table><p class="muted">Applies on <time datetime="${preview.applies_at}" data-applies-at>${formatDate(preview.applies_at)}</time>.</p>
<form method="post" action="/dashboard/${ctx.organization.id}/subscriptions/${s.id}/${confirm.action}">${csrfField(ctx.csrfToken)}${Object.entries(
    { proration_behavior: '', ...chosen },
  ).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}">`,
  )}<button type="submit">${confirm.label}</button></form></div>`;
}

/** What is scheduled: a pending plan or seat change (`pending_update`), a cancellation or a pause at the period end. */
function pendingCard(ctx: DashboardContext, s: Wire, products: Wire[]): HtmlValue {
  const pending: Wire | null = s.pending_update ?? null;
  const name = (id: string) => products.find(p => p.id === id)?.name ?? id;
  const rows = [
    pending?.product_id
      ? html`<li data-pending-product="${pending.product_id}">Plan changes to <strong>${name(pending.product_id)}</strong> on ${formatDate(pending.applies_at)}</li>`
      : null,
    pending?.seats ? html`<li>Seats change to ${pending.seats} on ${formatDate(pending.applies_at)}</li>` : null,
    s.cancel_at_period_end
      ? html`<li>Ends at the end of its period, ${formatDate(s.ends_at ?? s.current_period_end)}</li>`
      : null,
    s.pause_at_period_end ? html`<li>Pauses at the end of its period</li>` : null,
  ].filter(Boolean);
  if (!rows.length) return html`<p class="muted" data-pending="none">No change is scheduled.</p>`;
  const clear = pending
    ? html`<form class="inline" method="post" action="/dashboard/${ctx.organization.id}/subscriptions/${s.id}/clear-pending">${csrfField(ctx.csrfToken)}<button type="submit" class="secondary">Drop the pending change</button></form>`
    : null;
  return html`<ul class="plain" data-pending>${rows}</ul>${clear}`;
}

/**
 * `GET …/subscriptions/:id`: the subscription, what is scheduled, and the plan-change form. With a
 * `product_id` in the URL (the form is a GET: nothing changes until "Change plan"), the page shows the
 * API's update preview (`POST /v1/subscriptions/{id}/update-preview`, docs/dashboard.md#the-sections).
 */
async function showSubscription(ctx: DashboardContext, form: PlanForm = {}): Promise<void> {
  const id = ctx.req.params.id as string;
  const [subscription, products] = await Promise.all([
    ctx.call('subscriptions:get', { params: { id } }),
    ctx.call('products:list', {
      query: { organization_id: ctx.organization.id, is_archived: 'false', is_recurring: 'true', limit: '100' },
    }),
  ]);
  const s: Wire = ofThisOrganization(ctx, subscription);
  const from = ctx.req.method === 'POST' ? 'body' : 'query';
  const chosen = choice(ctx, from);
  const seats = seatsChoice(ctx, from);
  let error = form.error;
  let status = form.status;
  let preview: HtmlValue = null;
  const asked: [Record<string, unknown>, Parameters<typeof previewCard>[4]] | null = seats
    ? [seats, { action: 'change-seats', label: 'Change seats' }]
    : chosen.product_id
      ? [chosen, { action: 'change-plan', label: 'Change plan' }]
      : null;
  if (ctx.req.method === 'GET' && asked)
    await whenRefused(
      async () => {
        const answer = await ctx.call('subscriptions:update_preview', { params: { id }, body: asked[0] });
        preview = previewCard(ctx, s, answer, asked[0], asked[1]);
      },
      async (message, code) => {
        error = message;
        status = code;
      },
    );
  const others: Wire[] = products.items.filter((p: Wire) => p.id !== s.product_id);
  const ended = s.status === 'canceled' || s.status === 'incomplete_expired';
  const base = `/dashboard/${ctx.organization.id}/subscriptions`;
  const planForm = ended
    ? null
    : html`<h2>Change plan</h2><div class="card">${errorBox(error)}${
        others.length
          ? html`<form class="stack" method="get" action="${base}/${s.id}"><div class="row"><div class="field"><label for="plan-product">Product</label><select id="plan-product" name="product_id" required>${others.map(
              p =>
                html`<option value="${p.id}"${p.id === chosen.product_id ? rawHtml(' selected') : null}>${p.name} · ${formatProductPrice(p)}</option>`,
            )}</select></div><div class="field"><label for="plan-proration">Proration</label><select id="plan-proration" name="proration_behavior"><option value="">The organization's setting</option>${PRORATION_BEHAVIORS.map(
              ([key, label]) =>
                html`<option value="${key}"${key === chosen.proration_behavior ? rawHtml(' selected') : null}>${label}</option>`,
            )}</select></div></div><div><button type="submit" class="secondary">Preview</button></div></form>`
          : html`<p class="muted">The organization has no other recurring product.</p>`
      }${perSeat(s) ? seatsForm(ctx, s, seats) : null}</div>${preview}`;
  sendDashboard(ctx, {
    section: 'subscriptions',
    title: s.product?.name ?? 'Subscription',
    status,
    body: html`<p><a href="${base}">← Subscriptions</a></p>${heading(s.product?.name ?? 'Subscription')}
<div class="card" data-subscription="${s.id}"><dl class="facts"><dt>Customer</dt><dd>${s.customer?.email ?? ''}</dd>
<dt>Product</dt><dd data-product="${s.product_id}">${s.product?.name ?? ''}</dd><dt>Price</dt><dd>${formatRecurring(s)}</dd>
<dt>Status</dt><dd data-status="${s.status}">${subscriptionState(s).label}</dd>
<dt>Period</dt><dd>${formatDate(s.current_period_start)} – ${formatDate(s.current_period_end)}</dd></dl>
<h3>Scheduled</h3>${pendingCard(ctx, s, products.items)}</div>${planForm}`,
  });
}

/** The seats form of a per-seat subscription: a GET, previewed as the plan change is, then "Change seats". */
function seatsForm(ctx: DashboardContext, s: Wire, seats: Record<string, unknown> | null): HtmlValue {
  const typed = seats ? String(seats.seats) : String(s.seats ?? '');
  return html`<form class="stack" method="get" action="/dashboard/${ctx.organization.id}/subscriptions/${s.id}" data-seats-form><div class="row"><div class="field"><label for="plan-seats">Seats (now ${s.seats ?? '—'})</label><input id="plan-seats" type="number" min="1" name="seats" value="${typed}" required></div><div class="field"><label for="seats-proration">Proration</label><select id="seats-proration" name="proration_behavior"><option value="">The organization's setting</option>${PRORATION_BEHAVIORS.map(
    ([key, label]) =>
      html`<option value="${key}"${key === seats?.proration_behavior ? rawHtml(' selected') : null}>${label}</option>`,
  )}</select></div></div><div><button type="submit" class="secondary">Preview seats</button></div></form>`;
}

/** A `PATCH /v1/subscriptions/{id}` from the subscription's page; a refusal is shown there with the API's words. */
const updateSubscription =
  (body: (ctx: DashboardContext) => Record<string, unknown>, notice: string) =>
  async (ctx: DashboardContext): Promise<void> => {
    const id = ctx.req.params.id as string;
    ofThisOrganization(ctx, await ctx.call('subscriptions:get', { params: { id } }));
    await whenRefused(
      async () => {
        await ctx.call('subscriptions:update', { params: { id }, body: body(ctx) });
        redirectTo(ctx, `/subscriptions/${id}`, notice);
      },
      (error, status) => showSubscription(ctx, { error, status }),
    );
  };

export const subscriptionPlanRoutes: DashboardRoute[] = [
  { method: 'get', path: '/subscriptions/:id', handler: ctx => showSubscription(ctx) },
  {
    method: 'post',
    path: '/subscriptions/:id/change-plan',
    handler: updateSubscription(ctx => choice(ctx, 'body'), 'plan_changed'),
  },
  {
    method: 'post',
    path: '/subscriptions/:id/change-seats',
    handler: updateSubscription(ctx => seatsChoice(ctx, 'body') ?? { seats: '' }, 'seats_changed'),
  },
  {
    method: 'post',
    path: '/subscriptions/:id/clear-pending',
    handler: updateSubscription(() => ({ pending_update: null }), 'pending_cleared'),
  },
];
