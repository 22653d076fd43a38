import type { EnvironmentName } from '../../../kit/config.js';
import type { OrganizationSummary } from '../../../subgraphs/identity/contract.js';
import { html, type HtmlValue, rawHtml, type SafeHtml } from '../../web-kit/html.js';
import { errorBox, renderPage, sendPage } from '../../web-kit/layout.js';
import type { CspAllowance } from '../../web-kit/stripe-js.js';
import type { DashboardContext } from './dashboard-context.js';

/** The sections of the nav, in its order; each is a path under `/dashboard/<organization id>`. */
export const SECTIONS = [
  { key: 'overview', label: 'Overview', path: '' },
  { key: 'orders', label: 'Orders', path: '/orders' },
  { key: 'subscriptions', label: 'Subscriptions', path: '/subscriptions' },
  { key: 'customers', label: 'Customers', path: '/customers' },
  { key: 'products', label: 'Products', path: '/products' },
  { key: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { key: 'settings', label: 'Settings', path: '/settings' },
  { key: 'discounts', label: 'Discounts', path: '/discounts' },
  { key: 'checkout-links', label: 'Checkout links', path: '/checkout-links' },
  { key: 'members', label: 'Members', path: '/members' },
] as const;
export type SectionKey = (typeof SECTIONS)[number]['key'];

/**
 * The page's own notices after a redirect (`?notice=<key>`): only these fixed words are ever shown, so a
 * link cannot put text of its choosing on the page.
 */
const NOTICES: Record<string, string> = {
  refunded: 'The refund was made.',
  canceled: 'The subscription will end at the end of its period.',
  revoked: 'The subscription was revoked.',
  created: 'The product was created.',
  saved: 'Saved.',
  archived: 'The product was archived.',
  redelivered: 'The event was queued for delivery again.',
  advanced: 'The clock moved; the work that fell due ran.',
  'price-changed': 'The new price was set; the old one is archived.',
  'price-removed': 'The price was archived.',
  'benefits-saved': "The product's benefits were saved.",
  'discount-created': 'The discount was created.',
  'discount-deleted': 'The discount was deleted.',
  'link-created': 'The checkout link was created.',
  'link-deleted': 'The checkout link was deleted.',
  'discount-saved': 'The discount was saved.',
  'link-saved': 'The checkout link was saved.',
  'endpoint-created': 'The endpoint was created. Its receiver verifies events with the signing secret below.',
  'endpoint-deleted': 'The endpoint was deleted.',
  plan_changed: 'The plan was changed.',
  pending_cleared: 'The pending change was dropped.',
  seats_changed: 'The seats were changed.',
  'dashboard-saved': 'The dashboard was saved.',
  'dashboard-renamed': 'The dashboard was renamed.',
  'dashboard-deleted': 'The dashboard was deleted.',
  'member-added': 'The member was added. They were told by e-mail.',
  'member-invited': 'The invitation was sent by e-mail.',
  'member-role-changed': "The member's role was changed.",
  'member-removed': 'The member was removed.',
};

const DASHBOARD_STYLE = `
nav.sections{display:flex;flex-wrap:wrap;gap:.25rem;margin:0 0 1.25rem;border-bottom:1px solid var(--line)}
nav.sections a{padding:.5rem .8rem;text-decoration:none;color:var(--muted);border-bottom:2px solid transparent}
nav.sections a[aria-current=page]{color:var(--fg);border-bottom-color:var(--accent);font-weight:600}
.env{display:inline-block;font-size:.8rem;font-weight:600;padding:.15rem .55rem;border-radius:999px;text-transform:uppercase;letter-spacing:.03em}
.env.sandbox{background:var(--warn-bg);border:1px solid var(--warn-line)}
.env.production{background:var(--ok-bg);border:1px solid var(--ok-line)}
.dash-head{display:flex;align-items:center;justify-content:space-between;gap:1rem;flex-wrap:wrap;margin-bottom:.5rem}
.dash-head h1{margin:0}
.kpis{display:grid;grid-template-columns:repeat(auto-fill,minmax(11rem,1fr));gap:.75rem;margin:1rem 0}
.kpi{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.8rem 1rem}
.kpi strong{display:block;font-size:1.3rem}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(24rem,1fr));gap:1rem;margin:1rem 0}
.chart{margin:0;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem;min-height:1rem}
.chart figcaption{font-weight:500;margin-bottom:.25rem}
.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
.filters .field{min-width:9rem}
fieldset.metrics{flex-basis:100%;display:flex;flex-direction:row;flex-wrap:wrap;gap:.25rem 1rem}
fieldset.metrics label.check{display:inline-flex}
fieldset.metrics legend{width:100%}
td form.inline select{width:auto}
.pager{display:flex;gap:1rem;align-items:center;margin:.75rem 0}
td.num,th.num{text-align:right;white-space:nowrap}
pre.body{white-space:pre-wrap;overflow-wrap:anywhere;max-height:20rem;overflow:auto;background:var(--bg);padding:.5rem;border-radius:6px}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
dl.facts dd{margin:0}
.events{display:grid;grid-template-columns:repeat(auto-fill,minmax(13rem,1fr));gap:.2rem .75rem}
`
  .trim()
  .replace(/\n/g, '');

/** Production or sandbox, on every page beside the heading: a sandbox refund moves no money, a production one does. */
export function environmentMarker(environment: EnvironmentName): SafeHtml {
  return environment === 'sandbox'
    ? html`<span class="env sandbox" data-environment="sandbox" title="Test data and test payments only">Sandbox</span>`
    : html`<span class="env production" data-environment="production" title="Live data and real payments">Production</span>`;
}

/** The organization switcher (a plain GET form) when the user is a member of several. */
function organizationSwitcher(ctx: DashboardContext): HtmlValue {
  if (ctx.organizations.length < 2) return null;
  return html`<form class="inline" method="get" action="/dashboard"><label class="check">Organization
<select name="organization_id">${ctx.organizations.map(
    o => html`<option value="${o.id}"${o.id === ctx.organization.id ? rawHtml(' selected') : null}>${o.name}</option>`,
  )}</select></label> <button type="submit" class="secondary">Open</button></form>`;
}

/**
 * The notices whose words differ in the sandbox: it e-mails only its members' addresses (docs/email.md#sandbox),
 * so an invitation is kept in its outgoing mail rather than sent.
 */
const SANDBOX_NOTICES: Record<string, string> = {
  'member-invited':
    "The invitation was kept in the sandbox's outgoing mail, not sent: the sandbox e-mails only its members. Its link is on the Sandbox e-mails page, /sandbox/emails.",
};

/** The frame around every section: organization, environment, nav, the notice, then the section. */
export function dashboardFrame(ctx: DashboardContext, current: SectionKey, body: HtmlValue): SafeHtml {
  const base = `/dashboard/${ctx.organization.id}`;
  const key = ctx.query('notice') ?? '';
  const notice = (ctx.deps.environment === 'sandbox' ? SANDBOX_NOTICES[key] : undefined) ?? NOTICES[key];
  return html`<style>${rawHtml(DASHBOARD_STYLE)}</style>
<div class="dash-head"><p class="muted" style="margin:0"><strong>${ctx.organization.name}</strong> · ${ctx.organization.role} ${environmentMarker(ctx.deps.environment)}</p>${organizationSwitcher(ctx)}</div>
<nav class="sections" aria-label="Dashboard">${SECTIONS.map(
    s => html`<a href="${base}${s.path}"${s.key === current ? rawHtml(' aria-current="page"') : null}>${s.label}</a>`,
  )}</nav>
${notice ? html`<div class="notice" role="status">${notice}</div>` : null}${body}`;
}

/** The organization picker of `/dashboard` for a member of several organizations (or of none). */
export function pickerBody(environment: EnvironmentName, organizations: OrganizationSummary[]): SafeHtml {
  const list = organizations.length
    ? html`<ul class="plain">${organizations.map(
        o =>
          html`<li><a href="/dashboard/${o.id}">${o.name}</a> <span class="muted">· ${o.slug} · ${o.role}</span></li>`,
      )}</ul>`
    : html`<p>You are not a member of any organization yet. <a href="/settings">Create one in settings.</a></p>`;
  return html`<div class="dash-head"><h1>Dashboard</h1>${environmentMarker(environment)}</div><div class="card">${list}</div>`;
}

/** Previous / next links of a paginated `/v1` list, keeping the page's other query parameters. */
export function pager(
  ctx: DashboardContext,
  pagination: { total_count: number; max_page: number },
  currentPage: number,
): HtmlValue {
  if (pagination.max_page <= 1) return html`<p class="muted">${pagination.total_count} in all.</p>`;
  const link = (page: number) => {
    const url = new URL(ctx.req.originalUrl, 'http://local');
    url.searchParams.set('page', String(page));
    url.searchParams.delete('notice');
    return `${url.pathname}${url.search}`;
  };
  return html`<div class="pager">${currentPage > 1 ? html`<a href="${link(currentPage - 1)}" rel="prev">Previous</a>` : null}<span class="muted">Page ${currentPage} of ${pagination.max_page} · ${pagination.total_count} in all</span>${
    currentPage < pagination.max_page ? html`<a href="${link(currentPage + 1)}" rel="next">Next</a>` : null
  }</div>`;
}

/** The `page` query parameter as a positive integer (1 otherwise). */
export function pageNumber(ctx: DashboardContext): number {
  const page = Number(ctx.query('page'));
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** A section's heading with an optional error box (the API's refusal). */
export function heading(title: string, error?: string | null): SafeHtml {
  return html`<h1>${title}</h1>${errorBox(error)}`;
}

export interface DashboardPage {
  section: SectionKey;
  title: string;
  body: HtmlValue;
  status?: number;
  /** Our own scripts (the overview's charts): the page is sent with a CSP allowing this origin's scripts only. */
  scripts?: string[];
}

const OWN_SCRIPTS_ONLY: CspAllowance = { script: [], frame: ["'none'"], connect: ["'none'"] };

export function sendDashboard(ctx: DashboardContext, { section, title, body, status, scripts }: DashboardPage): void {
  const document = renderPage({
    title: `${title} · ${ctx.organization.name}`,
    user: ctx.user,
    wide: true,
    scripts,
    body: dashboardFrame(ctx, section, body),
  });
  sendPage(ctx.res, document, status ?? 200, scripts?.length ? OWN_SCRIPTS_ONLY : undefined);
}
