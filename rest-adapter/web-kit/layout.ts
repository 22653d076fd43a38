import type { Response } from 'express';
import { CSRF_FIELD } from './csrf.js';
import { html, type HtmlValue, rawHtml, SafeHtml, toHtml } from './html.js';
import { type CspAllowance, contentSecurityPolicy } from './stripe-js.js';

/** Who the page header names; with `csrfToken` it also shows a "Log out" button. */
export interface PageUser {
  email: string;
  csrfToken?: string;
}

export interface PageOptions {
  title: string;
  /** The page's content: a SafeHtml fragment (from `html`), or plain text (escaped). */
  body: HtmlValue;
  user?: PageUser | null;
  /** A narrow column (forms such as sign-in and consent) instead of the wide one. */
  narrow?: boolean;
  /** A wider column still (the dashboard's tables and charts). */
  wide?: boolean;
  /**
   * The header's name instead of the service's "Billing" link to settings: the hosted checkout shows the
   * seller's name, since its visitors are buyers, not users of the service.
   */
  brand?: string;
  /** Reload the page after this many seconds (a `<meta http-equiv="refresh">`: waiting without scripts). */
  refreshSeconds?: number;
  /**
   * Scripts the page loads, in order (Stripe.js, then our own asset): only the card pages have any,
   * and they are sent with a CSP that allows exactly these (`sendPage`'s `allow`).
   */
  scripts?: string[];
}

/**
 * The one stylesheet of every page (sign-in, settings, OAuth consent). Plain CSS, no scripts: every
 * page works without JavaScript.
 */
export const STYLESHEET = `
:root{color-scheme:light dark;--fg:#1d2027;--muted:#5d6472;--bg:#f6f7f9;--card:#fff;--line:#d9dde3;--accent:#0062ff;--accent-fg:#fff;--danger:#c62828;--warn-bg:#fff6db;--warn-line:#e9c46a;--ok-bg:#e8f6ee;--ok-line:#7bc59a}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ec;--muted:#9aa2b1;--bg:#111318;--card:#1a1d24;--line:#2c313b;--accent:#4d8dff;--accent-fg:#fff;--danger:#ff6b6b;--warn-bg:#2d2614;--warn-line:#7a6425;--ok-bg:#15291e;--ok-line:#2f6b47}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header.top{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.75rem 1.5rem;border-bottom:1px solid var(--line);background:var(--card)}
header.top .brand{font-weight:600;color:var(--fg);text-decoration:none}
header.top .who{display:flex;align-items:center;gap:.75rem;color:var(--muted);font-size:.9rem}
main{max-width:56rem;margin:2rem auto;padding:0 1.5rem}
main.narrow{max-width:26rem}
main.wide{max-width:80rem}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.15rem;margin:2rem 0 .75rem}
h3{font-size:.95rem;margin:1rem 0 .5rem;color:var(--muted)}
a{color:var(--accent)}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1.5rem}
form.stack,div.stack{display:flex;flex-direction:column;gap:1rem}
.field{display:flex;flex-direction:column;gap:.35rem}
.field label{font-weight:500}
label.check{display:flex;align-items:center;gap:.4rem;font-weight:400}
input[type=email],input[type=password],input[type=text],input[type=number],input[type=url],select{font:inherit;color:inherit;background:var(--bg);padding:.55rem .7rem;border:1px solid var(--line);border-radius:6px;width:100%}
input:focus,select:focus,button:focus{outline:2px solid var(--accent);outline-offset:1px}
button{font:inherit;cursor:pointer;border-radius:6px;padding:.55rem 1rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);font-weight:600}
button.secondary{background:transparent;color:var(--accent)}
button.danger{background:transparent;border-color:var(--danger);color:var(--danger);padding:.3rem .7rem;font-weight:500}
button.link{background:none;border:none;padding:0;color:var(--accent);font-weight:400;text-decoration:underline}
form.inline{display:inline}
.error{border:1px solid var(--danger);color:var(--danger);border-radius:6px;padding:.6rem .8rem;margin:0 0 1rem;overflow-wrap:anywhere}
.field-error{color:var(--danger);font-size:.9rem}
.notice{border:1px solid var(--ok-line);background:var(--ok-bg);border-radius:6px;padding:.6rem .8rem;margin:0 0 1rem;overflow-wrap:anywhere}
.warning{border:1px solid var(--warn-line);background:var(--warn-bg);border-radius:6px;padding:.6rem .8rem;margin:0 0 1rem;overflow-wrap:anywhere}
.payment-element{min-height:2.5rem}
.muted{color:var(--muted)}
.secret{display:block;font:14px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace;word-break:break-all;padding:.75rem;border:1px dashed var(--line);border-radius:6px;background:var(--bg);user-select:all}
table{width:100%;border-collapse:collapse;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
th,td{text-align:left;padding:.55rem .75rem;border-bottom:1px solid var(--line);vertical-align:top;font-size:.92rem}
th{color:var(--muted);font-weight:500}
td time{white-space:nowrap}
summary{cursor:pointer;color:var(--accent)}
tr:last-child td{border-bottom:none}
code{font:13px ui-monospace,SFMono-Regular,Menlo,monospace}
fieldset{border:1px solid var(--line);border-radius:8px;padding:.75rem 1rem}
legend{padding:0 .35rem;font-weight:500}
.scopes{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.15rem 1rem}
.scope-group{margin-bottom:.5rem}
ul.plain{list-style:none;padding:0;margin:0}
ul.plain li{padding:.6rem 0;border-bottom:1px solid var(--line)}
ul.plain li:last-child{border-bottom:none}
.lines{width:100%;border:none;background:none;margin-bottom:1rem}
.lines td{border:none;padding:.2rem 0}
.lines td:last-child{text-align:right;white-space:nowrap}
.lines tr.total td{font-weight:600;border-top:1px solid var(--line);padding-top:.5rem}
.row{display:flex;gap:.5rem;align-items:flex-end}
.row .field{flex:1}
.pay{width:100%;padding:.75rem 1rem;font-size:1.05rem}
`
  .trim()
  .replace(/\n/g, '');

/** A complete HTML document in the shared style. Every value is escaped unless it is SafeHtml. */
export function renderPage({ title, body, user, narrow, wide, brand, refreshSeconds, scripts }: PageOptions): string {
  const who = user
    ? html`<div class="who"><span>Signed in as <strong>${user.email}</strong></span>${
        user.csrfToken
          ? html`<form class="inline" method="post" action="/logout">${csrfField(user.csrfToken)}<button type="submit" class="link">Log out</button></form>`
          : null
      }</div>`
    : null;
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
${
  refreshSeconds
    ? html`<meta http-equiv="refresh" content="${refreshSeconds}">
`
    : null
}<title>${title}</title>
<style>${rawHtml(STYLESHEET)}</style>
${(scripts ?? []).map(
  src => html`<script src="${src}" defer></script>
`,
)}</head>
<body>
<header class="top">${brand ? html`<span class="brand">${brand}</span>` : html`<a class="brand" href="/settings">Billing</a>`}${who}</header>
<main${narrow ? rawHtml(' class="narrow"') : wide ? rawHtml(' class="wide"') : null}>
${toHtml(body)}
</main>
</body>
</html>
`;
  return page.value;
}

/** The hidden input every form that changes something carries. */
export function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

/** An error box for a form (role=alert so assistive technology announces it). */
export function errorBox(message: HtmlValue): SafeHtml {
  return message ? html`<div class="error" role="alert">${message}</div>` : html``;
}

/**
 * Sends a page with the headers every page gets: no framing, no scripts unless `allow` names where
 * they come from (the card pages: Stripe.js and our own asset), nothing cached (Cache-Control is
 * already `private, no-store` for every response of the app).
 */
export function sendPage(res: Response, page: string, status = 200, allow?: CspAllowance): void {
  res.status(status);
  res.set({
    'Content-Security-Policy': contentSecurityPolicy(allow),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  });
  res.type('html').send(page);
}

/** A page with just a heading and a message (404, 403, 400 and the like). */
export function renderMessagePage(title: string, message: HtmlValue, user?: PageUser | null): string {
  return renderPage({
    title,
    user,
    narrow: true,
    body: html`<h1>${title}</h1><div class="card"><p>${message}</p><p><a href="/settings">Back to settings</a></p></div>`,
  });
}
