import { soleOrganization } from '../../../kit/database/tenant-scope.js';
import type express from 'express';
import type { Request, Response } from 'express';
import { DomainError } from '../../../kit/errors.js';
import { ANONYMOUS, type Principal } from '../../../kit/principal.js';
import type { OrganizationDirectory, OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { html, type SafeHtml } from '../../web-kit/html.js';
import { csrfField, errorBox, sendPage } from '../../web-kit/layout.js';
import type { PortalApi } from './portal-api.js';
import { field, FORM_EXPIRED, message, messageOf, queryParam } from './portal-http.js';
import { renderPortalPage } from './portal-layout.js';
import type { PortalPages } from './portal-pages.js';
import { showBillingRefusal } from './portal-section-routes.js';
import { portalBase, setPortalToken } from './portal-session.js';

/**
 * The portal's e-mail change (docs/customer-email-update.md), through the Customer Portal API like every
 * portal page: the billing page's form asks for it (signed in), and the e-mailed link opens
 * `/portal/<slug>/verify-email?token=`, which needs no session (the link may be opened in another browser).
 * Following the link changes nothing by itself (mail scanners follow links): the page asks to confirm, and
 * the confirmation signs the customer in with the new session the API answers.
 */
export function emailChangeRequestRoute(portal: express.Router, pages: PortalPages): void {
  portal.post(
    '/email',
    pages.page(async (req, res) => {
      const ctx = pages.contextOf(req, res);
      if (!verifyCsrf(req)) return message(res, ctx.organization, 'Not allowed', FORM_EXPIRED, 403);
      try {
        await ctx.call('customer_portal:customers:request_email_update', {
          body: { email: field(req, 'email').trim() },
        });
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        return showBillingRefusal(
          pages,
          ctx,
          error.status === 422 ? 'Enter a new, valid e-mail address.' : messageOf(error),
        );
      }
      res.redirect(303, `${ctx.base}/billing?done=email-sent`);
    }),
  );
}

interface VerifyHelpers {
  page: (handler: (req: Request, res: Response) => Promise<void>) => express.RequestHandler;
  locals(res: Response): { organization: OrganizationProfile; base: string };
  customerOf(token: string | undefined): Promise<Principal | null>;
  api: PortalApi;
  organizations: OrganizationDirectory;
}

const LINK_INVALID = 'This link is invalid or has expired. Ask for the change again from the portal.';

export function verifyEmailRoutes(portal: express.Router, h: VerifyHelpers): void {
  portal.get(
    '/verify-email',
    h.page(async (req, res) => {
      const { base, organization } = h.locals(res);
      const token = queryParam(req, 'token') ?? '';
      const valid = await h.api
        .call('customer_portal:customers:check_email_update', { query: { token } }, ANONYMOUS, req.requestId)
        .then(
          () => true,
          error => {
            if (error instanceof DomainError && error.status < 500) return false;
            throw error;
          },
        );
      const body = valid
        ? confirmForm(base, issueCsrfToken(req, res), token)
        : confirmForm(base, null, null, LINK_INVALID);
      sendPage(
        res,
        renderPortalPage({ title: 'Confirm your e-mail', organization, body, narrow: true }),
        valid ? 200 : 400,
      );
    }),
  );
  portal.post(
    '/verify-email',
    h.page(async (req, res) => {
      const { base, organization } = h.locals(res);
      const again = (status: number, error: string, token: string | null) =>
        sendPage(
          res,
          renderPortalPage({
            title: 'Confirm your e-mail',
            organization,
            body: confirmForm(base, token ? issueCsrfToken(req, res) : null, token, error),
            narrow: true,
          }),
          status,
        );
      const token = field(req, 'token');
      if (!verifyCsrf(req)) return again(403, FORM_EXPIRED, token);
      let session: string;
      try {
        session = (
          await h.api.call<{ token: string }>(
            'customer_portal:customers:verify_email_update',
            { body: { token } },
            ANONYMOUS,
            req.requestId,
          )
        ).token;
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        return again(400, error.status === 422 ? messageOf(error) : LINK_INVALID, null);
      }
      // The session is for the customer's own organization: its portal, whatever slug the link named.
      const customer = await h.customerOf(session);
      const homeId = customer ? soleOrganization(customer) : null;
      const slug = (homeId ? await h.organizations.profile(homeId) : null)?.slug ?? organization.slug;
      setPortalToken(req, res, slug, session);
      res.redirect(303, `${portalBase(slug)}/billing?done=email`);
    }),
  );
}

/** The confirmation form, or (without a token) only the error. */
function confirmForm(base: string, csrfToken: string | null, token: string | null, error?: string): SafeHtml {
  return html`<h1>Confirm your e-mail</h1>
<div class="card">
${errorBox(error ?? null)}
${
  token && csrfToken
    ? html`<p class="muted">Use this address for your purchases from now on: receipts and sign-in codes go to it.</p>
<form class="stack" method="post" action="${base}/verify-email">
${csrfField(csrfToken)}<input type="hidden" name="token" value="${token}">
<button type="submit">Confirm my new e-mail</button>
</form>`
    : html`<p class="muted"><a href="${base}/request">Sign in</a></p>`
}
</div>`;
}
