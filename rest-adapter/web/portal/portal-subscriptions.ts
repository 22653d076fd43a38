import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { formatAmount, formatDate, formatRecurring, formatUnits, subscriptionState } from './portal-format.js';
import { noticeBox } from './portal-layout.js';

type Wire = Record<string, any>;

const REASONS: [string, string][] = [
  ['', 'Choose a reason (optional)'],
  ['too_expensive', 'Too expensive'],
  ['missing_features', 'Missing features'],
  ['switched_service', 'Switched to another service'],
  ['unused', "I don't use it"],
  ['customer_service', 'Customer service'],
  ['low_quality', 'Quality was less than expected'],
  ['too_complex', 'Too complex'],
  ['other', 'Other'],
];

function stateBadge(subscription: Wire): SafeHtml {
  const { label, tone } = subscriptionState(subscription);
  return html`<span class="badge ${tone}">${label}</span>`;
}

/**
 * A subscription's usage this period (docs/usage-billing.md#estimated-charges): per metered price, the units
 * consumed and credited so far and what they would charge now (`meters[]` of the API's subscription).
 */
function usageCard(s: Wire): SafeHtml | null {
  const meters: Wire[] = s.meters ?? [];
  if (!meters.length) return null;
  const total = meters.reduce((sum, m) => sum + Number(m.amount ?? 0), 0);
  return html`<div class="card">
<h2>Usage this period</h2>
<table>
<thead><tr><th>Meter</th><th>Consumed</th><th>Credited</th><th>Estimated charge</th></tr></thead>
<tbody>${meters.map(
    m =>
      html`<tr><td>${m.meter?.name ?? ''}</td><td>${formatUnits(m.consumed_units)}</td><td>${formatUnits(m.credited_units)}</td><td>${formatAmount(m.amount, s.currency)}</td></tr>`,
  )}</tbody>
</table>
<p>Estimated usage charges: <strong>${formatAmount(total, s.currency)}</strong>, billed at the end of the period (${formatDate(s.current_period_end)}).</p>
</div>`;
}

/** The customer's meters (`GET /v1/customer-portal/meters/`): units since the last reset and the balance. */
function metersTable(meters: Wire[]): SafeHtml | null {
  if (!meters.length) return null;
  return html`<h2>Usage</h2>
<table>
<thead><tr><th>Meter</th><th>Consumed</th><th>Credited</th><th>Balance</th></tr></thead>
<tbody>${meters.map(
    m =>
      html`<tr><td>${m.meter?.name ?? ''}</td><td>${formatUnits(m.consumed_units)}</td><td>${formatUnits(m.credited_units)}</td><td>${formatUnits(m.balance)}</td></tr>`,
  )}</tbody>
</table>`;
}

/** The subscriptions view: each with its plan, price, state and a link to manage it; then the customer's meters. */
export function subscriptionsBody(items: Wire[], base: string, notice?: string | null, meters: Wire[] = []): SafeHtml {
  if (!items.length)
    return html`<h1>Subscriptions</h1>${noticeBox(notice)}<p class="muted">You have no subscriptions.</p>${metersTable(meters)}`;
  return html`<h1>Subscriptions</h1>${noticeBox(notice)}
<table>
<thead><tr><th>Plan</th><th>Price</th><th>Status</th><th>Current period ends</th><th></th></tr></thead>
<tbody>${items.map(
    s =>
      html`<tr><td>${s.product?.name ?? ''}</td><td>${formatRecurring(s)}</td><td>${stateBadge(s)}</td><td><time datetime="${s.current_period_end}">${formatDate(s.current_period_end)}</time></td><td><a href="${base}/subscriptions/${s.id}">Manage</a></td></tr>`,
  )}</tbody>
</table>${metersTable(meters)}`;
}

export interface SubscriptionActions {
  /** The organization lets customers cancel, and the subscription can still be canceled. */
  cancel: boolean;
  /** It is set to cancel at period end and has not ended: "Keep subscription". */
  uncancel: boolean;
  /** The organization lets customers change plans and the API can do it here. */
  changePlan: boolean;
  /** A seat-based subscription whose seats the organization lets customers change. */
  changeSeats: boolean;
}

/** One subscription, with what the customer may do to it. */
export function subscriptionBody(
  s: Wire,
  options: {
    base: string;
    csrfToken: string;
    actions: SubscriptionActions;
    notice?: string | null;
    error?: string | null;
  },
): SafeHtml {
  const path = `${options.base}/subscriptions/${s.id}`;
  const { actions } = options;
  return html`<p><a href="${options.base}/subscriptions">← Subscriptions</a></p>
<h1>${s.product?.name ?? 'Subscription'}</h1>
${noticeBox(options.notice)}${errorBox(options.error)}
${
  // Where the past-due e-mail's "Update payment" lands: the ways to pay are on other tabs.
  s.status === 'past_due'
    ? html`<p class="warning" role="note">The last payment for this subscription failed. <a href="${options.base}/orders">Pay it now</a> or <a href="${options.base}/payment-methods/new">add a payment method</a>: a card you add becomes the one charged from then on.</p>`
    : null
}
<div class="card">
<dl class="facts">
<dt>Status</dt><dd>${stateBadge(s)}</dd>
<dt>Price</dt><dd>${formatRecurring(s)}</dd>
${s.seats ? html`<dt>Seats</dt><dd>${s.seats}</dd>` : null}
<dt>Started</dt><dd>${formatDate(s.started_at)}</dd>
<dt>Current period</dt><dd>${formatDate(s.current_period_start)} – ${formatDate(s.current_period_end)}</dd>
${s.trial_end ? html`<dt>Trial ends</dt><dd>${formatDate(s.trial_end)}</dd>` : null}
${s.ended_at ? html`<dt>Ended</dt><dd>${formatDate(s.ended_at)}</dd>` : null}
</dl>
<div class="actions">
${actions.changePlan ? html`<a class="button" href="${path}/change-plan">Change plan</a>` : null}
${actions.changeSeats ? html`<a class="button" href="${path}/seats">Change seats</a>` : null}
${actions.cancel ? html`<a class="button" href="${path}/cancel">Cancel subscription</a>` : null}
${
  actions.uncancel
    ? html`<form class="inline" method="post" action="${path}/uncancel">${csrfField(options.csrfToken)}<button type="submit">Keep subscription</button></form>`
    : null
}
</div>
</div>
${usageCard(s)}`;
}

/** The confirmation before canceling at period end (reason and comment, as Polar's portal asks). */
export function cancelBody(s: Wire, options: { base: string; csrfToken: string; error?: string | null }): SafeHtml {
  const path = `${options.base}/subscriptions/${s.id}`;
  return html`<p><a href="${path}">← ${s.product?.name ?? 'Subscription'}</a></p>
<h1>Cancel subscription</h1>
${errorBox(options.error)}
<div class="card">
<p>Your subscription to <strong>${s.product?.name ?? ''}</strong> (${formatRecurring(s)}) stays active until the end of the current period, <strong>${formatDate(s.current_period_end)}</strong>, and is not renewed after it. You can keep it until then.</p>
<form class="stack" method="post" action="${path}/cancel">
${csrfField(options.csrfToken)}
<div class="field"><label for="cancel-reason">Why are you canceling?</label><select id="cancel-reason" name="cancellation_reason">${REASONS.map(
    ([value, label]) => html`<option value="${value}">${label}</option>`,
  )}</select></div>
<div class="field"><label for="cancel-comment">Anything else? (optional)</label><input id="cancel-comment" type="text" name="cancellation_comment" maxlength="1000"></div>
<div class="actions"><button type="submit" class="secondary">Cancel at period end</button><a href="${path}">Keep my subscription</a></div>
</form>
</div>`;
}
