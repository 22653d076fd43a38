import type { Request, Response } from 'express';
import type { Principal } from '../../../kit/principal.js';
import type { OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { html, type SafeHtml } from '../../web-kit/html.js';
import { benefitsBody } from './portal-benefits.js';
import { billingBody, billingFormOf, ordersBody } from './portal-account.js';
import type { PortalApi, PortalCall } from './portal-api.js';
import { noticeBox } from './portal-layout.js';
import { subscriptionsBody } from './portal-subscriptions.js';

type Wire = Record<string, any>;

/** What a view of the portal gets: the signed-in customer, its seller, and the API as that customer. */
export interface PortalContext {
  req: Request;
  res: Response;
  api: PortalApi;
  principal: Principal;
  organization: OrganizationProfile;
  /** `/portal/<slug>`. */
  base: string;
  csrfToken: string;
  /** Runs one documented operation as this customer (PortalApi.call). */
  call<T = any>(operationId: string, input?: PortalCall): Promise<T>;
  /** A `?done=` message of the redirect that led here. */
  notice: string | null;
  /** A link the API gives (a signed download) as this site's path when it is on the public URL. */
  link(url: unknown): string | null;
}

/**
 * A section of the portal: a tab of its navigation and the page at `/portal/<slug>/<path>`. The portal is
 * the list below; a part of the service that adds a portal API (benefits, payment methods, invoices) adds
 * or fills a section with `registerPortalSection`, and `available` keeps a section out of the navigation
 * until its route exists on this server (and the organization's settings allow it).
 */
export interface PortalSection {
  id: string;
  label: string;
  path: string;
  available(ctx: PortalContext): boolean;
  render(ctx: PortalContext): Promise<SafeHtml>;
}

const sections: PortalSection[] = [];

/**
 * Adds a section, or replaces the one with the same id (a placeholder filled by its feature). Answers the
 * undoing: the section taken out again, and the one it replaced put back.
 */
export function registerPortalSection(section: PortalSection, options: { before?: string } = {}): () => void {
  const existing = sections.findIndex(s => s.id === section.id);
  const replaced = existing >= 0 ? sections[existing] : undefined;
  if (existing >= 0) sections[existing] = section;
  else {
    const at = options.before ? sections.findIndex(s => s.id === options.before) : -1;
    if (at >= 0) sections.splice(at, 0, section);
    else sections.push(section);
  }
  return () => {
    const at = sections.indexOf(section);
    if (at < 0) return;
    if (replaced) sections[at] = replaced;
    else sections.splice(at, 1);
  };
}

export function portalSections(): readonly PortalSection[] {
  return sections;
}

const items = (page: { items?: Wire[] }) => page.items ?? [];

registerPortalSection({
  id: 'subscriptions',
  label: 'Subscriptions',
  path: 'subscriptions',
  available: ctx => ctx.api.has('customer_portal:subscriptions:list'),
  render: async ctx =>
    subscriptionsBody(
      items(await ctx.call('customer_portal:subscriptions:list', { query: { limit: '100' } })),
      ctx.base,
      ctx.notice,
      // The customer's meters, where the API serves them (docs/usage-billing.md#customer-meters).
      ctx.api.has('customer_portal:customer_meters:list')
        ? items(await ctx.call('customer_portal:customer_meters:list', { query: { limit: '100' } }))
        : [],
    ),
});

registerPortalSection({
  id: 'orders',
  label: 'Orders',
  path: 'orders',
  available: ctx => ctx.api.has('customer_portal:orders:list'),
  render: async ctx => {
    const orders = items(await ctx.call('customer_portal:orders:list', { query: { limit: '100' } }));
    // A renewal whose charge failed or waits for the bank: the customer pays it on its card page.
    const unpaid = orders.filter(o => o.status === 'pending');
    return html`${noticeBox(ctx.notice)}${unpaid.map(o => html`<p class="warning" role="note">${o.product?.name ?? o.description ?? 'An order'} is waiting for payment. <a href="${ctx.base}/orders/${o.id}/pay">Pay now</a></p>`)}${ordersBody(
      orders,
      { base: ctx.base, invoices: ctx.api.has('customer_portal:orders:invoice') },
    )}`;
  },
});

// Benefits: license keys, downloadable files and the other grants, each part shown when its route is served.
const GRANTS = 'customer_portal:benefit-grants:list';
const LICENSE_KEYS = 'customer_portal:license_keys:list';
const DOWNLOADABLES = 'customer_portal:downloadables:list';

registerPortalSection({
  id: 'benefits',
  label: 'Benefits',
  path: 'benefits',
  available: ctx => [GRANTS, LICENSE_KEYS, DOWNLOADABLES].some(id => ctx.api.has(id)),
  render: async ctx => {
    const list = async (id: string) => (ctx.api.has(id) ? items(await ctx.call(id, { query: { limit: '100' } })) : []);
    const [keys, files, grants] = await Promise.all([list(LICENSE_KEYS), list(DOWNLOADABLES), list(GRANTS)]);
    const { base, csrfToken, notice, link } = ctx;
    return benefitsBody({
      keys,
      files,
      grants,
      activations: await activationsOf(ctx, keys),
      link,
      base,
      csrfToken,
      notice,
    });
  },
});

/** The live activations of each key that takes activations (one `license_keys:get` per such key). */
async function activationsOf(ctx: PortalContext, keys: Wire[]): Promise<Map<string, Wire[]>> {
  const KEY = 'customer_portal:license_keys:get';
  const counted = keys.filter(k => k.limit_activations && k.status !== 'revoked');
  if (!ctx.api.has(KEY)) return new Map();
  const withActivations = await Promise.all(counted.map(k => ctx.call(KEY, { params: { id: k.id } })));
  return new Map(withActivations.map(k => [k.id as string, (k.activations ?? []) as Wire[]]));
}

// Saved payment methods arrive with the portal's payment-method API; until then the tab is not shown.
registerPortalSection({
  id: 'payment-methods',
  label: 'Payment methods',
  path: 'payment-methods',
  available: ctx => ctx.api.has('customer_portal:customers:list_payment_methods'),
  render: async ctx => {
    const methods = items(
      await ctx.call('customer_portal:customers:list_payment_methods', { query: { limit: '100' } }),
    );
    const add = html`<p class="actions"><a class="button" href="${ctx.base}/payment-methods/new">Add a payment method</a></p>`;
    if (!methods.length)
      return html`<h1>Payment methods</h1>${noticeBox(ctx.notice)}<p class="muted">No saved payment method.</p>${add}`;
    // Polar's CustomerPaymentMethod: a card's brand, last digits and expiry are in `method_metadata`.
    return html`<h1>Payment methods</h1>${noticeBox(ctx.notice)}<ul class="plain">${methods.map(m => {
      const card = m.method_metadata ?? m.card;
      return html`<li>${card?.last4 ? html`${card.brand ?? 'Card'} ending in ${card.last4}, expires ${card.exp_month}/${card.exp_year}` : m.type}</li>`;
    })}</ul>${add}`;
  },
});

// Billing details: the form (its post is handled by the portal router, which re-renders it on error).
registerPortalSection({
  id: 'billing',
  label: 'Billing details',
  path: 'billing',
  available: ctx => ctx.api.has('customer_portal:customers:get'),
  render: async ctx => {
    const customer = await ctx.call('customer_portal:customers:get');
    return billingBody({
      base: ctx.base,
      csrfToken: ctx.csrfToken,
      email: customer.email ?? null,
      form: billingFormOf(customer),
      emailChange: ctx.organization.customerPortalSettings.customer.allow_email_change,
      notice: ctx.notice,
    });
  },
});
