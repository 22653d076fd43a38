import { html, type HtmlValue, rawHtml, type SafeHtml, toHtml } from '../../web-kit/html.js';
import { csrfField, STYLESHEET } from '../../web-kit/layout.js';

/** The portal's additions to the shared stylesheet (navigation tabs, status badges, definition lists). */
const PORTAL_STYLES = `
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;margin:0 0 1.5rem;border-bottom:1px solid var(--line)}
nav.tabs a{padding:.5rem .9rem;text-decoration:none;color:var(--muted);border-bottom:2px solid transparent}
nav.tabs a[aria-current=page]{color:var(--fg);border-bottom-color:var(--accent);font-weight:600}
.badge{display:inline-block;font-size:.8rem;padding:.05rem .5rem;border-radius:999px;border:1px solid var(--line);color:var(--muted)}
.badge.ok{border-color:var(--ok-line);background:var(--ok-bg);color:var(--fg)}
.badge.warn{border-color:var(--warn-line);background:var(--warn-bg);color:var(--fg)}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1.25rem;margin:0 0 1rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;margin-top:1rem}
a.button{display:inline-block;text-decoration:none;border-radius:6px;padding:.55rem 1rem;border:1px solid var(--accent);color:var(--accent);font-weight:600}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
`
  .trim()
  .replace(/\n/g, '');

export interface PortalNavItem {
  label: string;
  href: string;
  current: boolean;
}

export interface PortalPageOptions {
  title: string;
  /** The seller, named in the header (its portal's home is the brand link). */
  organization: { name: string; slug: string };
  body: HtmlValue;
  /** Signed in: the customer's e-mail, and the CSRF token for the sign-out form. */
  customer?: { email: string | null; csrfToken: string } | null;
  nav?: PortalNavItem[];
  /** The merchant's page to go back to (the customer session's `return_url`). */
  returnUrl?: string | null;
  narrow?: boolean;
  /** The card pages' scripts (Stripe.js, then ours); every other portal page has none. */
  scripts?: string[];
}

/** A complete portal document in the style of the other pages (no scripts; every value escaped). */
export function renderPortalPage(options: PortalPageOptions): string {
  const base = `/portal/${encodeURIComponent(options.organization.slug)}`;
  const who = options.customer
    ? html`<div class="who">${options.customer.email ? html`<span>Signed in as <strong>${options.customer.email}</strong></span>` : null}<form class="inline" method="post" action="${base}/sign-out">${csrfField(options.customer.csrfToken)}<button type="submit" class="link">Sign out</button></form></div>`
    : null;
  const nav = options.nav?.length
    ? html`<nav class="tabs" aria-label="Customer portal">${options.nav.map(
        item => html`<a href="${item.href}"${item.current ? rawHtml(' aria-current="page"') : null}>${item.label}</a>`,
      )}</nav>`
    : null;
  const back = options.returnUrl
    ? html`<p class="muted"><a href="${options.returnUrl}">← Back to ${options.organization.name}</a></p>`
    : null;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${options.title} · ${options.organization.name}</title>
<style>${rawHtml(STYLESHEET)}${rawHtml(PORTAL_STYLES)}</style>
${(options.scripts ?? []).map(
  src => html`<script src="${src}" defer></script>
`,
)}</head>
<body>
<header class="top"><a class="brand" href="${base}">${options.organization.name}</a>${who}</header>
<main${options.narrow ? rawHtml(' class="narrow"') : null}>
${back}${nav}${toHtml(options.body)}
</main>
</body>
</html>
`.value;
}

/** A notice (green) for what just happened, from the `?done=` of a redirect. */
export function noticeBox(message: string | null | undefined): SafeHtml {
  return message ? html`<div class="notice" role="status">${message}</div>` : html``;
}
