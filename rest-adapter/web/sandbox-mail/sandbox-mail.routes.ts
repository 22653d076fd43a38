import express, { type Request, type Response } from 'express';
import type { OrganizationSummary } from '../../../subgraphs/identity/contract.js';
import { requireSignIn } from '../../web-kit/auth.js';
import { html, type HtmlValue } from '../../web-kit/html.js';
import { renderMessagePage, renderPage, sendPage } from '../../web-kit/layout.js';
import { page, pageUser, queryParam, type WebDependencies } from '../account-pages.js';
import type { PortalApi } from '../portal/portal-api.js';

/** A message as `GET /v1/sandbox/emails/` answers it. */
interface SandboxEmail {
  kind: string;
  to: string;
  from_name: string | null;
  subject: string;
  text: string;
  html: string | null;
  status: string;
  reason: string | null;
  created_at: string;
}

/**
 * The sandbox's mail page (docs/email.md#sandbox), `/sandbox/emails?organization_id=…`: the
 * organization's recent outgoing e-mail, delivered or not, for a signed-in member. It reads
 * `GET /v1/sandbox/emails/` (the route's own object, run as the user through the gateway client), so the
 * page and the API cannot disagree and a non-member sees nothing. Bodies are shown as text (the HTML part
 * as its escaped source): nothing of an e-mail runs in the page.
 */
export function sandboxMailRoutes(deps: WebDependencies & { api: PortalApi; sandbox: boolean }): express.Router {
  const router = express.Router();
  router.get(
    '/sandbox/emails',
    page(deps, async (_deps, req, res) => {
      if (!deps.sandbox) return notHere(deps, req, res);
      if (!requireSignIn(req, res)) return;
      const organizations = await deps.identity.organizations(req.principal);
      const chosen = queryParam(req, 'organization_id') ?? (organizations.length === 1 ? organizations[0].id : null);
      if (!chosen) return show(deps, req, res, 'Sandbox e-mails', chooser(organizations));
      const { items } = await deps.api.call<{ items: SandboxEmail[] }>(
        'sandbox:emails_list',
        { query: { organization_id: chosen } },
        req.principal,
        req.requestId,
      );
      const name = organizations.find(o => o.id === chosen)?.name ?? '';
      await show(deps, req, res, `Sandbox e-mails of ${name}`, mailList(items));
    }),
  );
  return router;
}

/** Production sends what it sends; its mail is not listed in the service. */
async function notHere(deps: WebDependencies, req: Request, res: Response) {
  const body = 'The outgoing mail is listed in the sandbox only.';
  sendPage(res, renderMessagePage('Not found', body, await pageUser(deps, req, res)), 404);
}

async function show(deps: WebDependencies, req: Request, res: Response, title: string, body: HtmlValue) {
  sendPage(res, renderPage({ title, body: html`<h1>${title}</h1>${body}`, user: await pageUser(deps, req, res) }));
}

function chooser(organizations: OrganizationSummary[]): HtmlValue {
  return html`<p>Choose an organization:</p><ul>${organizations.map(
    o => html`<li><a href="/sandbox/emails?organization_id=${o.id}">${o.name}</a></li>`,
  )}</ul>`;
}

const STATUS: Record<string, string> = {
  sent: 'Sent',
  not_delivered: 'Not delivered',
  pending: 'Waiting to be sent',
  failed: 'Failed',
};

function mailList(items: SandboxEmail[]): HtmlValue {
  const intro = html`<p class="muted">Every e-mail the sandbox wrote is listed here. It delivers only those addressed to members of the organization (their <code>+alias</code> addresses too); the others are kept here, not sent.</p>`;
  if (!items.length) return html`${intro}<p>No e-mail yet.</p>`;
  return html`${intro}${items.map(
    m => html`<div class="card"><p><strong>${m.subject}</strong></p>
<p class="muted">To ${m.to}${m.from_name ? html` · from ${m.from_name}` : null} · ${new Date(m.created_at).toUTCString()} · ${STATUS[m.status] ?? m.status}${m.reason ? html` (${m.reason})` : null}</p>
<pre style="white-space:pre-wrap">${m.text}</pre>${
      m.html
        ? html`<details><summary>HTML part (source)</summary><pre style="white-space:pre-wrap">${m.html}</pre></details>`
        : null
    }</div>`,
  )}`;
}
