import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { formatAmount, formatDate, formatProductPrice } from './portal-format.js';

type Wire = Record<string, any>;

/**
 * Choosing another plan. The choice is a GET to the review page (nothing changes there), so it works
 * without scripts and the review can be reloaded; only the review's confirmation posts (with CSRF).
 */
export function changePlanBody(s: Wire, options: { base: string; products: Wire[]; error?: string | null }): SafeHtml {
  const path = `${options.base}/subscriptions/${s.id}`;
  const others = options.products.filter(p => p.id !== s.product_id && p.is_recurring !== false && !p.is_archived);
  return html`<p><a href="${path}">← ${s.product?.name ?? 'Subscription'}</a></p>
<h1>Change plan</h1>
${errorBox(options.error)}
<div class="card"><form class="stack" method="get" action="${path}/change-plan/review">
<fieldset><legend>Plans</legend>${
    others.length
      ? others.map(
          p =>
            html`<label class="check"><input type="radio" name="product_id" value="${p.id}" required> ${p.name} <span class="muted">${formatProductPrice(p)}</span></label>`,
        )
      : html`<p class="muted">There is no other plan to change to.</p>`
  }</fieldset>
${others.length ? html`<button type="submit">Review the change</button>` : null}
</form></div>`;
}

/** Choosing the number of seats of a seat-based subscription (then the review, as for a plan). */
export function changeSeatsBody(s: Wire, options: { base: string; seats?: string; error?: string | null }): SafeHtml {
  const path = `${options.base}/subscriptions/${s.id}`;
  return html`<p><a href="${path}">← ${s.product?.name ?? 'Subscription'}</a></p>
<h1>Change seats</h1>
${errorBox(options.error)}
<div class="card"><form class="stack" method="get" action="${path}/seats/review">
<p>You have <strong>${s.seats}</strong> seats now.</p>
<div class="field"><label for="seats">Seats</label><input id="seats" type="number" name="seats" min="1" step="1" required value="${options.seats ?? String(s.seats ?? 1)}"></div>
<button type="submit">Review the change</button>
</form></div>`;
}

export interface ChangeReview {
  /** "Change to Premium", "Change to 5 seats". */
  title: string;
  /** Where the confirmation posts, and its fields (besides the CSRF token). */
  action: string;
  fields: Record<string, string>;
  /** Where "Choose again" leads. */
  back: string;
  /** The subscription's page ("Keep my plan"). */
  subscription: string;
}

/**
 * The preview of a change before the customer confirms it: the lines of the order it makes (or of the
 * next renewal order), the totals, and when it applies, from the portal's update preview (the order
 * the confirmation then creates, to the cent).
 */
export function reviewBody(s: Wire, preview: Wire | null, review: ChangeReview, csrfToken: string): SafeHtml {
  const money = (amount: number) => formatAmount(amount, preview?.currency ?? s.currency);
  const lines: Wire[] = preview?.items ?? [];
  const table = preview
    ? html`<table class="lines"><tbody>${
        lines.length
          ? lines.map(i => html`<tr><td>${i.label}</td><td>${money(i.amount)}</td></tr>`)
          : html`<tr><td class="muted">Nothing to pay for this change.</td><td></td></tr>`
      }
${preview.discount_amount ? html`<tr><td>Discount</td><td>−${money(preview.discount_amount)}</td></tr>` : null}
${preview.tax_amount ? html`<tr><td>Tax</td><td>${money(preview.tax_amount)}</td></tr>` : null}
<tr class="total"><td>Total</td><td data-total>${money(preview.total_amount)}</td></tr>
</tbody></table>
<p data-when>${whenText(s, preview, money)}</p>`
    : html`<p class="muted">The cost of this change cannot be shown here.</p>`;
  return html`<p><a href="${review.back}">← Choose again</a></p>
<h1>Review the change</h1>
<div class="card"><h2>${review.title}</h2>
${table}
<form method="post" action="${review.action}">${csrfField(csrfToken)}${Object.entries(review.fields).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`,
  )}<input type="hidden" name="confirm" value="1"><div class="actions"><button type="submit">Confirm the change</button><a href="${review.subscription}">Keep my plan</a></div></form>
</div>`;
}

/**
 * When the change applies and when its total is billed, read from the preview: applying at the period
 * end is the organization's `next_period`; applying now with only proration lines is billed now
 * (`invoice`); applying now with the new period's line rides on the next renewal (`prorate`).
 */
function whenText(s: Wire, preview: Wire, money: (amount: number) => string): string {
  const appliesAt = new Date(preview.applies_at).getTime();
  const periodEnd = s.current_period_end ? new Date(s.current_period_end).getTime() : Number.POSITIVE_INFINITY;
  const total: number = preview.total_amount;
  if (appliesAt >= periodEnd)
    return `The change applies at the end of the current period, on ${formatDate(preview.applies_at)}; ${money(total)} is billed then.`;
  const items: Wire[] = preview.items ?? [];
  if (!items.length || total === 0) return 'The change applies now. Nothing is charged now.';
  if (items.some(i => !i.proration))
    return `The change applies now; ${money(total)} is billed with your next renewal on ${formatDate(s.current_period_end)}.`;
  if (total < 0) return `The change applies now; ${money(-total)} is credited to your account balance.`;
  return `The change applies now; ${money(total)} is charged now to your saved payment method.`;
}
