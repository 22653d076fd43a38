import { formatProductPrice } from '../portal/portal-format.js';
import { benefitsAfter, benefitsSection, organizationBenefits } from './product-benefits.js';
import {
  organizationMeters,
  priceCurrency,
  priceFields,
  priceFromForm,
  pricesSection,
  replacingPrice,
  withoutPrice,
} from './product-prices.js';
import {
  csrfField,
  type DashboardContext,
  type DashboardRoute,
  errorBox,
  formField,
  type FormState,
  heading,
  html,
  type HtmlValue,
  ofThisOrganization,
  pageNumber,
  pager,
  rawHtml,
  redirectTo,
  sendDashboard,
  whenRefused,
  type Wire,
} from './section.js';

const PAGE_SIZE = '20';
const INTERVALS = ['month', 'year', 'week', 'day'] as const;

/**
 * The create form: name, description, a fixed, pay-what-you-want, free, per-seat or metered price in the
 * organization's currency, one-time or recurring.
 */
function createForm(ctx: DashboardContext, currency: string, meters: Wire[], error?: string): HtmlValue {
  const billing = formField(ctx, 'recurring_interval');
  return html`<h2>New product</h2><div class="card">${errorBox(error)}<form class="stack" method="post" action="/dashboard/${ctx.organization.id}/products">${csrfField(ctx.csrfToken)}
<div class="field"><label for="product-name">Name</label><input id="product-name" type="text" name="name" value="${formField(ctx, 'name')}" required></div>
<div class="field"><label for="product-description">Description</label><input id="product-description" type="text" name="description" value="${formField(ctx, 'description')}"></div>
${priceFields(ctx, currency, meters)}
<div class="row"><div class="field"><label for="product-billing">Billing</label><select id="product-billing" name="recurring_interval"><option value="">One-time</option>${INTERVALS.map(
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
  const [{ items, pagination }, currency, meters] = await Promise.all([
    ctx.call('products:list', {
      query: {
        organization_id: ctx.organization.id,
        is_archived: String(archived),
        page: String(page),
        limit: PAGE_SIZE,
      },
    }),
    organizationCurrency(ctx),
    archived ? [] : organizationMeters(ctx),
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
    body: html`${heading('Products')}${rows}${pager(ctx, pagination, page)}${toggle}${archived ? null : createForm(ctx, currency, meters, form.error)}`,
  });
}

/** `POST …/products`: `POST /v1/products/` with one fixed, pay-what-you-want, free, per-seat or metered price. */
async function createProduct(ctx: DashboardContext): Promise<void> {
  const currency = await organizationCurrency(ctx);
  const price = priceFromForm(ctx, currency);
  if (typeof price === 'string') return listProducts(ctx, { error: price, status: 422 });
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
          prices: [price],
        },
      });
      redirectTo(ctx, `/products/${product.id}`, 'created');
    },
    (error, status) => listProducts(ctx, { error, status }),
  );
}

/** `GET …/products/:id`: the edit form (name, description), its prices, its benefits and the archive button. */
async function showProduct(ctx: DashboardContext, form: FormState = {}): Promise<void> {
  const [found, currency, benefits, meters] = await Promise.all([
    ctx.call('products:get', { params: { id: ctx.req.params.id as string } }),
    organizationCurrency(ctx),
    organizationBenefits(ctx),
    organizationMeters(ctx),
  ]);
  const product: Wire = ofThisOrganization(ctx, found);
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
${pricesSection(ctx, product, priceCurrency(product, currency), meters)}${benefitsSection(ctx, product, benefits)}
${
  product.is_archived
    ? null
    : html`<h2>Archive</h2><div class="card"><p class="muted">An archived product is no longer sold; its subscriptions go on.</p><form method="post" action="${base}/archive">${csrfField(ctx.csrfToken)}<button type="submit" class="danger">Archive product</button></form></div>`
}`,
  });
}

/**
 * The body of a change from a form of the product's page, made from the product as the API answers it; a
 * string is the form's own error (422, nothing sent).
 */
type ProductChange = (ctx: DashboardContext, product: Wire) => Promise<Record<string, unknown> | string>;

/**
 * A `PATCH /v1/products/{id}` (or another operation on the product, such as its benefits) from a form of the
 * product's page; a refusal is shown there.
 */
const updateProduct =
  (change: ProductChange, notice: string, operationId = 'products:update') =>
  async (ctx: DashboardContext): Promise<void> => {
    const id = ctx.req.params.id as string;
    const product: Wire = ofThisOrganization(ctx, await ctx.call('products:get', { params: { id } }));
    const body = await change(ctx, product);
    if (typeof body === 'string') return showProduct(ctx, { error: body, status: 422 });
    await whenRefused(
      async () => {
        await ctx.call(operationId, { params: { id }, body });
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
      async ctx => ({ name: formField(ctx, 'name'), description: formField(ctx, 'description').trim() || null }),
      'saved',
    ),
  },
  {
    method: 'post',
    path: '/products/:id/archive',
    handler: updateProduct(async () => ({ is_archived: true }), 'archived'),
  },
  {
    method: 'post',
    path: '/products/:id/prices',
    handler: updateProduct(async (ctx, product) => {
      const price = priceFromForm(ctx, priceCurrency(product, await organizationCurrency(ctx)));
      return typeof price === 'string' ? price : { prices: replacingPrice(product, price) };
    }, 'price-changed'),
  },
  {
    method: 'post',
    path: '/products/:id/prices/:priceId/remove',
    handler: updateProduct(
      async (ctx, product) => ({ prices: withoutPrice(product, ctx.req.params.priceId as string) }),
      'price-removed',
    ),
  },
  {
    method: 'post',
    path: '/products/:id/benefits/attach',
    handler: updateProduct(
      async (ctx, product) => ({ benefits: benefitsAfter(product, { attached: formField(ctx, 'benefit_id') }) }),
      'benefits-saved',
      'products:update_benefits',
    ),
  },
  {
    method: 'post',
    path: '/products/:id/benefits/detach',
    handler: updateProduct(
      async (ctx, product) => ({ benefits: benefitsAfter(product, { detached: formField(ctx, 'benefit_id') }) }),
      'benefits-saved',
      'products:update_benefits',
    ),
  },
];
