import { safeExternalUrl } from '../portal/portal-format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  errorBox,
  formField,
  type FormState,
  formValues,
  heading,
  html,
  ofThisOrganization,
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

/** The most live products the form offers (the API's page limit), besides the link's own. */
const PRODUCTS_LISTED = '100';

async function linkOf(ctx: DashboardContext): Promise<Wire> {
  const id = ctx.req.params.id as string;
  return ofThisOrganization(ctx, await ctx.call('checkout-links:get', { params: { id } }));
}

/**
 * `GET …/checkout-links/:id`: the link's URL to share and the form of what may change: label, products
 * (the organization's live ones and the link's own, archived or not) and success URL.
 */
async function showLink(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const [link, live] = await Promise.all([
    linkOf(ctx),
    ctx.call('products:list', {
      query: { organization_id: ctx.organization.id, is_archived: 'false', limit: PRODUCTS_LISTED },
    }),
  ]);
  const own: Wire[] = link.products ?? [];
  const products = [...own, ...live.items.filter((p: Wire) => !own.some(o => o.id === p.id))];
  const posted = ctx.req.method === 'POST';
  const chosen = new Set(posted ? formValues(ctx, 'products') : own.map(p => p.id));
  const shown = (name: string, current: unknown) =>
    posted ? formField(ctx, name) : typeof current === 'string' ? current : '';
  const base = `/dashboard/${ctx.organization.id}/checkout-links`;
  sendDashboard(ctx, {
    section: 'checkout-links',
    title: link.label ?? 'Checkout link',
    status: form.status,
    body: html`<p><a href="${base}">← Checkout links</a></p>${heading(link.label ?? 'Checkout link')}
<div class="card"><div class="field"><label for="link-url">Link to share</label><input id="link-url" type="text" readonly value="${safeExternalUrl(link.url) ?? ''}" data-url></div></div>
<h2>Edit</h2><div class="card">${errorBox(form.error)}<form class="stack" method="post" action="${base}/${link.id}">${csrfField(ctx.csrfToken)}
<fieldset><legend>Products</legend>${products.map(
      p =>
        html`<label class="check"><input type="checkbox" name="products" value="${p.id}"${chosen.has(p.id) ? rawHtml(' checked') : null}> ${p.name}${p.is_archived ? ' (archived)' : ''}</label>`,
    )}</fieldset>
<div class="field"><label for="link-label">Label (only you see it)</label><input id="link-label" type="text" name="label" value="${shown('label', link.label)}"></div>
<div class="field"><label for="link-success">Success URL (empty: the service's own page)</label><input id="link-success" type="url" name="success_url" value="${shown('success_url', link.success_url)}" placeholder="https://example.com/thanks"></div>
<div><button type="submit">Save link</button></div></form></div>`,
  });
}

/** `POST …/checkout-links/:id`: `PATCH /v1/checkout-links/{id}` with the label, the products and the success URL. */
async function updateLink(ctx: DashboardContext): Promise<void> {
  const link = await linkOf(ctx);
  const products = formValues(ctx, 'products');
  if (!products.length) return showLink(ctx, { error: 'Choose at least one product.', status: 422 });
  const label = formField(ctx, 'label').trim();
  const successUrl = formField(ctx, 'success_url').trim();
  await whenRefused(
    async () => {
      await ctx.call('checkout-links:update', {
        params: { id: link.id },
        body: { products, label: label || null, success_url: successUrl || null },
      });
      redirectTo(ctx, `/checkout-links/${link.id}`, 'link-saved');
    },
    (error, status) => showLink(ctx, { error, status }),
  );
}

export const checkoutLinkEditRoutes: DashboardRoute[] = [
  { method: 'get', path: '/checkout-links/:id', handler: ctx => showLink(ctx) },
  { method: 'post', path: '/checkout-links/:id', handler: updateLink },
];
