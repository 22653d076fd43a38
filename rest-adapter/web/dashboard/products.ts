import { parseMajorUnits } from '../../../kit/money/format.js';
import { html, type HtmlValue, rawHtml } from '../../web-kit/html.js';
import { csrfField, errorBox } from '../../web-kit/layout.js';
import { formatProductPrice } from '../portal/portal-format.js';
import {
  type DashboardContext,
  type DashboardRoute,
  formField,
  ofThisOrganization,
  redirectTo,
  whenRefused,
} from './dashboard-context.js';
import { heading, pageNumber, pager, sendDashboard } from './dashboard-frame.js';

type Wire = Record<string, any>;
const PAGE_SIZE = '20';
const INTERVALS = ['month', 'year', 'week', 'day'] as const;

interface FormState {
  error?: string;
  status?: number;
}

/** The create form: name, description, a fixed price (or free) in the organization's currency, one-time or recurring. */
function createForm(ctx: DashboardContext, currency: string, error?: string): HtmlValue {
  const billing = formField(ctx, 'recurring_interval');
  return html`<h2>New product</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/products">${csrfField(ctx.csrfToken)}
<div class="field"><label for="product-name">Name</label><input id="product-name" type="text" name="name" value="${formField(ctx, 'name')}" required></div>
<div class="field"><label for="product-description">Description</label><input id="product-description" type="text" name="description" value="${formField(ctx, 'description')}"></div>
<div class="row"><div class="field"><label for="product-price">Price (${currency.toUpperCase()}; 0 for free)</label><input id="product-price" type="text" inputmode="decimal" name="price" value="${formField(ctx, 'price')}" required></div>
<div class="field"><label for="product-billing">Billing</label><select id="product-billing" name="recurring_interval"><option value="">One-time</option>${INTERVALS.map(
    i => html`<option value="${i}"${i === billing ? rawHtml(' selected') : null}>Every ${i}</option>`,
  )}</select></div></div>
<div><button type="submit">Create product</button></div></form></div>`;
}

async function organizationCurrency(ctx: DashboardContext): Promise<string> {
  const organization = await ctx.call('organizations:get', { params: { id: ctx.organization.id } });
  return organization.default_presentment_currency || 'usd';
}

/** `GET …/products`: `GET /v1/products/` of the organization (archived ones on request), and the create form. */
async function listProducts(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const page = pageNumber(ctx);
  const archived = ctx.query('archived') === 'true';
  const [{ items, pagination }, currency] = await Promise.all([
    ctx.call('products:list', {
      query: {
        organization_id: ctx.organization.id,
        is_archived: String(archived),
        page: String(page),
        limit: PAGE_SIZE,
      },
    }),
    organizationCurrency(ctx),
  ]);
  const base = `/dashboard/${ctx.organization.id}/products`;
  const rows = items.length
    ? html`<table><thead><tr><th>Name</th><th>Price</th><th>Visibility</th></tr></thead><tbody>${items.map(
        (p: Wire) =>
          html`<tr><td><a href="${base}/${p.id}">${p.name}</a></td><td>${formatProductPrice(p)}</td><td>${p.is_archived ? 'Archived' : (p.visibility ?? 'public')}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">No ${archived ? 'archived ' : ''}products.</p>`;
  const toggle = archived
    ? html`<p><a href="${base}">Show live products</a></p>`
    : html`<p><a href="${base}?archived=true">Show archived products</a></p>`;
  sendDashboard(ctx, {
    section: 'products',
    title: 'Products',
    status: form.status,
    body: html`${heading('Products')}${rows}${pager(ctx, pagination, page)}${toggle}${archived ? null : createForm(ctx, currency, form.error)}`,
  });
}

/** `POST …/products`: `POST /v1/products/` with one fixed (or free) price. */
async function createProduct(ctx: DashboardContext): Promise<void> {
  const currency = await organizationCurrency(ctx);
  const amount = parseMajorUnits(formField(ctx, 'price'), currency);
  if (amount === null || amount < 0n)
    return listProducts(ctx, { error: 'Give the price as a number, such as 19.00 (0 for free).', status: 422 });
  const interval = formField(ctx, 'recurring_interval');
  const description = formField(ctx, 'description').trim();
  await whenRefused(
    async () => {
      const product = await ctx.call('products:create', {
        body: {
          organization_id: ctx.organization.id,
          name: formField(ctx, 'name'),
          description: description || null,
          recurring_interval: interval || null,
          // A free price is a fixed price of 0 on the wire (docs/sdk-compatibility.md).
          prices: [{ amount_type: 'fixed', price_amount: Number(amount), price_currency: currency }],
        },
      });
      redirectTo(ctx, `/products/${product.id}`, 'created');
    },
    (error, status) => listProducts(ctx, { error, status }),
  );
}

/** `GET …/products/:id`: the edit form (name, description) and the archive button. */
async function showProduct(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const product: Wire = ofThisOrganization(
    ctx,
    await ctx.call('products:get', { params: { id: ctx.req.params.id as string } }),
  );
  const base = `/dashboard/${ctx.organization.id}/products/${product.id}`;
  const posted = ctx.req.method === 'POST';
  sendDashboard(ctx, {
    section: 'products',
    title: product.name,
    status: form.status,
    body: html`<p><a href="/dashboard/${ctx.organization.id}/products">← Products</a></p>${heading(product.name)}
<div class="card"><p>${formatProductPrice(product)}${product.is_archived ? ' · archived' : null} · <code>${product.id}</code></p>
${errorBox(form.error)}<form class="stack" method="post" action="${base}">${csrfField(ctx.csrfToken)}
<div class="field"><label for="product-name">Name</label><input id="product-name" type="text" name="name" value="${posted ? formField(ctx, 'name') : product.name}" required></div>
<div class="field"><label for="product-description">Description</label><input id="product-description" type="text" name="description" value="${posted ? formField(ctx, 'description') : (product.description ?? '')}"></div>
<div><button type="submit">Save</button></div></form></div>
${
  product.is_archived
    ? null
    : html`<h2>Archive</h2><div class="card"><p class="muted">An archived product is no longer sold; its subscriptions go on.</p><form method="post" action="${base}/archive">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Archive product</button></form></div>`
}`,
  });
}

/** A `PATCH /v1/products/{id}` from a form of the product's page; a refusal is shown there. */
const updateProduct =
  (body: (ctx: DashboardContext) => Record<string, unknown>, notice: string) =>
  async (ctx: DashboardContext): Promise<void> => {
    const id = ctx.req.params.id as string;
    ofThisOrganization(ctx, await ctx.call('products:get', { params: { id } }));
    await whenRefused(
      async () => {
        await ctx.call('products:update', { params: { id }, body: body(ctx) });
        redirectTo(ctx, `/products/${id}`, notice);
      },
      (error, status) => showProduct(ctx, { error, status }),
    );
  };

export const productRoutes: DashboardRoute[] = [
  { method: 'get', path: '/products', handler: ctx => listProducts(ctx) },
  { method: 'post', path: '/products', handler: createProduct },
  { method: 'get', path: '/products/:id', handler: ctx => showProduct(ctx) },
  {
    method: 'post',
    path: '/products/:id',
    handler: updateProduct(
      ctx => ({ name: formField(ctx, 'name'), description: formField(ctx, 'description').trim() || null }),
      'saved',
    ),
  },
  { method: 'post', path: '/products/:id/archive', handler: updateProduct(() => ({ is_archived: true }), 'archived') },
];
