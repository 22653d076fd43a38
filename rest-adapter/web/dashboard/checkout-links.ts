import { safeExternalUrl } from '../portal/portal-format.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  deleteOfThisOrganization,
  errorBox,
  formField,
  type FormState,
  formValues,
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
/** The most live products the create form offers (the API's page limit); a link of others is made through the API. */
const PRODUCTS_LISTED = '100';

function createForm(ctx: DashboardContext, products: Wire[], error?: string): HtmlValue {
  const chosen = new Set(formValues(ctx, 'products'));
  const boxes = products.length
    ? html`<fieldset><legend>Products</legend>${products.map(
        p =>
          html`<label class="check"><input type="checkbox" name="products" value="${p.id}"${chosen.has(p.id) ? rawHtml(' checked') : null}> ${p.name}</label>`,
      )}</fieldset>`
    : html`<p class="muted">Create a product first: a link opens a checkout of one or more products.</p>`;
  return html`<h2>New checkout link</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/checkout-links">${csrfField(ctx.csrfToken)}
${boxes}
<div class="field"><label for="link-label">Label (only you see it)</label><input id="link-label" type="text" name="label" value="${formField(ctx, 'label')}"></div>
<div class="field"><label for="link-success">Success URL (optional)</label><input id="link-success" type="url" name="success_url" value="${formField(ctx, 'success_url')}" placeholder="https://example.com/thanks"></div>
<label class="check"><input type="checkbox" name="allow_discount_codes" value="on"${ctx.req.method !== 'POST' || formField(ctx, 'allow_discount_codes') ? rawHtml(' checked') : null}> Buyers may enter a discount code</label>
<div><button type="submit">Create link</button></div></form></div>`;
}

/**
 * `GET …/checkout-links`: `GET /v1/checkout-links/` of the organization, each with its shareable URL to copy
 * and a delete button, and the create form over the organization's live products.
 */
async function listLinks(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const page = pageNumber(ctx);
  const [{ items, pagination }, products] = await Promise.all([
    ctx.call('checkout-links:list', {
      query: { organization_id: ctx.organization.id, page: String(page), limit: PAGE_SIZE },
    }),
    ctx.call('products:list', {
      query: { organization_id: ctx.organization.id, is_archived: 'false', limit: PRODUCTS_LISTED },
    }),
  ]);
  const base = `/dashboard/${ctx.organization.id}/checkout-links`;
  const rows = items.length
    ? html`<table><thead><tr><th>Label</th><th>Products</th><th>Link to share</th><th></th></tr></thead><tbody>${items.map(
        (l: Wire) =>
          html`<tr data-checkout-link="${l.id}"><td><a href="${base}/${l.id}">${l.label ?? 'no label'}</a></td><td>${(l.products ?? []).map((p: Wire) => p.name).join(', ')}</td><td><input type="text" readonly aria-label="Link to share" value="${safeExternalUrl(l.url) ?? ''}" data-url></td><td class="num"><form class="inline" method="post" action="${base}/${l.id}/delete">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Delete</button></form></td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No checkout links.</p>`;
  sendDashboard(ctx, {
    section: 'checkout-links',
    title: 'Checkout links',
    status: form.status,
    body: html`${heading('Checkout links')}<p class="muted">Each time a link is followed it opens a fresh checkout of its products.</p>${rows}${pager(ctx, pagination, page)}${createForm(ctx, products.items, form.error)}`,
  });
}

/** `POST …/checkout-links`: `POST /v1/checkout-links/` for the chosen products. */
async function createLink(ctx: DashboardContext): Promise<void> {
  const products = formValues(ctx, 'products');
  if (!products.length) return listLinks(ctx, { error: 'Choose at least one product.', status: 422 });
  const label = formField(ctx, 'label').trim();
  const successUrl = formField(ctx, 'success_url').trim();
  await whenRefused(
    async () => {
      await ctx.call('checkout-links:create', {
        body: {
          payment_processor: 'stripe',
          products,
          label: label || null,
          success_url: successUrl || null,
          allow_discount_codes: formField(ctx, 'allow_discount_codes') === 'on',
        },
      });
      redirectTo(ctx, '/checkout-links', 'link-created');
    },
    (error, status) => listLinks(ctx, { error, status }),
  );
}

/** `POST …/checkout-links/:id/delete`: `DELETE /v1/checkout-links/{id}` of a link of this organization. */
const deleteLink = deleteOfThisOrganization(
  { get: 'checkout-links:get', remove: 'checkout-links:delete' },
  { path: '/checkout-links', notice: 'link-deleted' },
  listLinks,
);

export const checkoutLinkRoutes: DashboardRoute[] = [
  { method: 'get', path: '/checkout-links', handler: ctx => listLinks(ctx) },
  { method: 'post', path: '/checkout-links', handler: createLink },
  { method: 'post', path: '/checkout-links/:id/delete', handler: deleteLink },
];
