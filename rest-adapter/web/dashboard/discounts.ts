import { formatMoney, parseMajorUnits } from '../../../kit/money/format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  deleteOfThisOrganization,
  errorBox,
  formField,
  type FormState,
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
const DURATIONS = [
  { value: 'once', label: 'Once' },
  { value: 'forever', label: 'Forever' },
  { value: 'repeating', label: 'For some months' },
] as const;

/** `12.5` (percent) → 1250 basis points, exactly; anything but a plain number with at most two decimals is null. */
function basisPoints(text: string): number | null {
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** What a discount takes off: `25%`, `12.5%`, `$5.00`. */
export function discountValue(discount: Wire): string {
  if (discount.type === 'percentage') return `${discount.basis_points / 100}%`;
  return formatMoney(BigInt(discount.amount), discount.currency);
}

export function discountDuration(discount: Wire): string {
  if (discount.duration === 'repeating')
    return `${discount.duration_in_months} month${discount.duration_in_months === 1 ? '' : 's'}`;
  return discount.duration === 'once' ? 'Once' : 'Forever';
}

function createForm(ctx: DashboardContext, currency: string, error?: string): HtmlValue {
  const selected = (name: string, value: string, fallback: string) =>
    (formField(ctx, name) || fallback) === value ? rawHtml(' selected') : null;
  return html`<h2>New discount</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/discounts">${csrfField(ctx.csrfToken)}
<div class="field"><label for="discount-name">Name</label><input id="discount-name" type="text" name="name" value="${formField(ctx, 'name')}" required></div>
<div class="row"><div class="field"><label for="discount-type">Kind</label><select id="discount-type" name="type"><option value="percentage"${selected('type', 'percentage', 'percentage')}>Percentage off</option><option value="fixed"${selected('type', 'fixed', 'percentage')}>Amount off (${currency.toUpperCase()})</option></select></div>
<div class="field"><label for="discount-value">Percentage or amount off</label><input id="discount-value" type="text" inputmode="decimal" name="value" value="${formField(ctx, 'value')}" placeholder="10" required></div></div>
<div class="row"><div class="field"><label for="discount-duration">Duration</label><select id="discount-duration" name="duration">${DURATIONS.map(
    d => html`<option value="${d.value}"${selected('duration', d.value, 'once')}>${d.label}</option>`,
  )}</select></div>
<div class="field"><label for="discount-months">Months (for some months)</label><input id="discount-months" type="number" min="1" name="duration_in_months" value="${formField(ctx, 'duration_in_months')}"></div></div>
<div class="row"><div class="field"><label for="discount-code">Code (optional: without one, the discount is applied by links and the API)</label><input id="discount-code" type="text" name="code" value="${formField(ctx, 'code')}"></div>
<div class="field"><label for="discount-max">Most redemptions (optional)</label><input id="discount-max" type="number" min="1" name="max_redemptions" value="${formField(ctx, 'max_redemptions')}"></div></div>
<div><button type="submit">Create discount</button></div></form></div>`;
}

async function organizationCurrency(ctx: DashboardContext): Promise<string> {
  const organization = await ctx.call('organizations:get', { params: { id: ctx.organization.id } });
  return organization.default_presentment_currency || 'usd';
}

/** `GET …/discounts`: `GET /v1/discounts/` of the organization, each with a delete button, and the create form. */
async function listDiscounts(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const page = pageNumber(ctx);
  const [{ items, pagination }, currency] = await Promise.all([
    ctx.call('discounts:list', {
      query: { organization_id: ctx.organization.id, page: String(page), limit: PAGE_SIZE },
    }),
    organizationCurrency(ctx),
  ]);
  const base = `/dashboard/${ctx.organization.id}/discounts`;
  const rows = items.length
    ? html`<table><thead><tr><th>Name</th><th>Code</th><th>Off</th><th>Duration</th><th class="num">Redeemed</th><th></th></tr></thead><tbody>${items.map(
        (d: Wire) =>
          html`<tr data-discount="${d.id}"><td><a href="${base}/${d.id}">${d.name}</a></td><td>${d.code ? html`<code>${d.code}</code>` : html`<span class="muted">none</span>`}</td><td>${discountValue(d)}</td><td>${discountDuration(d)}</td><td class="num">${d.redemptions_count}${d.max_redemptions != null ? ` of ${d.max_redemptions}` : ''}</td><td class="num"><form class="inline" method="post" action="${base}/${d.id}/delete">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Delete</button></form></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No discounts.</p>`;
  sendDashboard(ctx, {
    section: 'discounts',
    title: 'Discounts',
    status: form.status,
    body: html`${heading('Discounts')}${rows}${pager(ctx, pagination, page)}${createForm(ctx, currency, form.error)}`,
  });
}

/** What the discount takes off, from the form's kind and value: basis points, or minor units of `currency`. */
function discountOff(type: string, value: string, currency: string): Wire | null {
  if (type === 'percentage') {
    const points = basisPoints(value);
    return points === null || points < 1 || points > 10_000 ? null : { type, basis_points: points };
  }
  if (type !== 'fixed') return null;
  const amount = parseMajorUnits(value, currency);
  return amount === null || amount <= 0n ? null : { type, amount: Number(amount), currency };
}

/** The create body the form describes (Polar's DiscountPercentageCreate or DiscountFixedCreate), or the form's error. */
function discountBody(ctx: DashboardContext, currency: string): Wire | string {
  const off = discountOff(formField(ctx, 'type'), formField(ctx, 'value'), currency);
  if (!off) return 'Give the percentage (0.01 to 100) or the amount off (such as 5.00) as a number.';
  const duration = formField(ctx, 'duration');
  const months = formField(ctx, 'duration_in_months').trim();
  const most = formField(ctx, 'max_redemptions').trim();
  const code = formField(ctx, 'code').trim();
  return {
    ...off,
    organization_id: ctx.organization.id,
    name: formField(ctx, 'name'),
    duration,
    // Numbers as typed: the API's own validation answers a bad count (422, at its field).
    ...(duration === 'repeating' ? { duration_in_months: months ? Number(months) : null } : {}),
    ...(code ? { code } : {}),
    ...(most ? { max_redemptions: Number(most) } : {}),
  };
}

/** `POST …/discounts`: `POST /v1/discounts/`. */
async function createDiscount(ctx: DashboardContext): Promise<void> {
  const body = discountBody(ctx, await organizationCurrency(ctx));
  if (typeof body === 'string') return listDiscounts(ctx, { error: body, status: 422 });
  await whenRefused(
    async () => {
      await ctx.call('discounts:create', { body });
      redirectTo(ctx, '/discounts', 'discount-created');
    },
    (error, status) => listDiscounts(ctx, { error, status }),
  );
}

/** `POST …/discounts/:id/delete`: `DELETE /v1/discounts/{id}` of a discount of this organization. */
const deleteDiscount = deleteOfThisOrganization(
  { get: 'discounts:get', remove: 'discounts:delete' },
  { path: '/discounts', notice: 'discount-deleted' },
  listDiscounts,
);

export const discountRoutes: DashboardRoute[] = [
  { method: 'get', path: '/discounts', handler: ctx => listDiscounts(ctx) },
  { method: 'post', path: '/discounts', handler: createDiscount },
  { method: 'post', path: '/discounts/:id/delete', handler: deleteDiscount },
];
