import { csrfField, type DashboardContext, html, type HtmlValue, type Wire } from './section.js';

/** The most benefits the attach list offers (the API's page limit); more are attached through the API. */
const BENEFITS_LISTED = '100';

/** The organization's benefits, to attach (`GET /v1/benefits/`). */
export async function organizationBenefits(ctx: DashboardContext): Promise<Wire[]> {
  const { items } = await ctx.call('benefits:list', {
    query: { organization_id: ctx.organization.id, limit: BENEFITS_LISTED },
  });
  return items;
}

const benefitIds = (product: Wire): string[] => (product.benefits ?? []).map((b: Wire) => b.id);

/**
 * The `benefits` list of `POST /v1/products/{id}/benefits`, which replaces the product's benefits (in this
 * order): the product's own with `attached` added at the end, or without `detached`.
 */
export function benefitsAfter(product: Wire, change: { attached?: string; detached?: string }): string[] {
  const current = benefitIds(product);
  if (change.attached) return current.includes(change.attached) ? current : [...current, change.attached];
  return current.filter(id => id !== change.detached);
}

const describe = (benefit: Wire) => `${benefit.description} (${String(benefit.type).replace(/_/g, ' ')})`;

/** The product page's benefits: each attached one with a detach button, and the organization's others to attach. */
export function benefitsSection(ctx: DashboardContext, product: Wire, benefits: Wire[]): HtmlValue {
  const base = `/dashboard/${ctx.organization.id}/products/${product.id}/benefits`;
  const attached: Wire[] = product.benefits ?? [];
  const others = benefits.filter(b => !benefitIds(product).includes(b.id));
  const list = attached.length
    ? html`<ul class="plain">${attached.map(
        b =>
          html`<li data-benefit="${b.id}">${describe(b)} <form class="inline" method="post" action="${base}/detach">${csrfField(ctx.csrfToken)}<input type="hidden" name="benefit_id" value="${b.id}"><button type="submit" class="secondary">Detach</button></form></li>`,
      )}</ul>`
    : html`<p class="muted">No benefits: buyers get the product alone.</p>`;
  const attach = others.length
    ? html`<form class="inline" method="post" action="${base}/attach">${csrfField(ctx.csrfToken)}<label for="benefit-id">Benefit</label> <select id="benefit-id" name="benefit_id">${others.map(
        b => html`<option value="${b.id}">${describe(b)}</option>`,
      )}</select> <button type="submit">Attach</button></form>`
    : html`<p class="muted">Every benefit of the organization is attached; new ones are made through the API (<code>POST /v1/benefits/</code>).</p>`;
  return html`<h2>Benefits</h2><div class="card">${list}${attach}</div>`;
}
