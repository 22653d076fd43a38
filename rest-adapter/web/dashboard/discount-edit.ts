import { discountDuration, discountValue } from './discounts.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  errorBox,
  formField,
  type FormState,
  heading,
  html,
  ofThisOrganization,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

/** The field's posted value after a refused post, else the discount's own. */
function shown(ctx: DashboardContext, name: string, current: unknown): string {
  if (ctx.req.method === 'POST') return formField(ctx, name);
  return current == null ? '' : String(current);
}

async function discountOf(ctx: DashboardContext): Promise<Wire> {
  const id = ctx.req.params.id as string;
  return ofThisOrganization(ctx, await ctx.call('discounts:get', { params: { id } }));
}

/**
 * `GET …/discounts/:id`: what the discount takes off (fixed at creation, as in Polar's dashboard: a change
 * would alter what customers already redeemed) and the form of what may change: name, code, most redemptions.
 */
async function showDiscount(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const discount = await discountOf(ctx);
  const base = `/dashboard/${ctx.organization.id}/discounts`;
  sendDashboard(ctx, {
    section: 'discounts',
    title: discount.name,
    status: form.status,
    body: html`<p><a href="${base}">← Discounts</a></p>${heading(discount.name)}
<div class="card"><dl class="facts"><dt>Off</dt><dd>${discountValue(discount)}</dd><dt>Duration</dt><dd>${discountDuration(discount)}</dd><dt>Redeemed</dt><dd>${discount.redemptions_count}</dd></dl></div>
<h2>Edit</h2><div class="card">${errorBox(form.error)}<form class="stack" method="post" action="${base}/${discount.id}">${csrfField(ctx.csrfToken)}
<div class="field"><label for="discount-name">Name</label><input id="discount-name" type="text" name="name" value="${shown(ctx, 'name', discount.name)}" required></div>
<div class="row"><div class="field"><label for="discount-code">Code (empty: none)</label><input id="discount-code" type="text" name="code" value="${shown(ctx, 'code', discount.code)}"></div>
<div class="field"><label for="discount-max">Most redemptions (empty: no limit)</label><input id="discount-max" type="number" min="1" name="max_redemptions" value="${shown(ctx, 'max_redemptions', discount.max_redemptions)}"></div></div>
<div><button type="submit">Save discount</button></div></form></div>`,
  });
}

/** `POST …/discounts/:id`: `PATCH /v1/discounts/{id}` with the name, the code and the most redemptions (empty clears them). */
async function updateDiscount(ctx: DashboardContext): Promise<void> {
  const discount = await discountOf(ctx);
  const code = formField(ctx, 'code').trim();
  const most = formField(ctx, 'max_redemptions').trim();
  await whenRefused(
    async () => {
      await ctx.call('discounts:update', {
        params: { id: discount.id },
        // The count as typed: the API's own validation answers a bad one (422, at its field).
        body: { name: formField(ctx, 'name'), code: code || null, max_redemptions: most ? Number(most) : null },
      });
      redirectTo(ctx, `/discounts/${discount.id}`, 'discount-saved');
    },
    (error, status) => showDiscount(ctx, { error, status }),
  );
}

export const discountEditRoutes: DashboardRoute[] = [
  { method: 'get', path: '/discounts/:id', handler: ctx => showDiscount(ctx) },
  { method: 'post', path: '/discounts/:id', handler: updateDiscount },
];
