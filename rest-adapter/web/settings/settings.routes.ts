import express, { type Request, type Response } from 'express';
import { DomainError, PolarRequestValidationError, type ValidationIssue } from '../../../kit/errors.js';
import type { Logger } from '../../../kit/logger.js';
import type { OrganizationPage, WebIdentity, WebSession } from '../../../subgraphs/identity/contract.js';
import { currentUser, requireSignIn, safeReturnTo } from '../../web-kit/auth.js';
import { clearSessionCookie, setSessionCookie } from '../../web-kit/cookies.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { renderMessagePage, renderPage, sendPage, type PageUser } from '../../web-kit/layout.js';
import { loginForm, signupForm } from '../../web-kit/sign-in-forms.js';
import { EXPIRY_OPTIONS, organizationBody, settingsBody, tokenCreatedBody } from './settings.views.js';

/**
 * What the pages need: identity's web contract, in-process (embedded topology) or over its signed
 * internal endpoints (distributed topology). The pages never touch identity's tables themselves.
 */
export interface WebDependencies {
  identity: WebIdentity;
  logger: Logger;
}

const MAX_COMMENT = 200;
const FORM_EXPIRED = 'This form has expired or did not come from this site. Please try again.';

/**
 * The pages a person signs in on and the organization settings (server-rendered HTML, no scripts):
 * `/login`, `/signup`, `/logout`, `/settings`, `/settings/organizations/{id}` and its token forms.
 * Mounted through `createApp`'s `extensions`; it asks identity through `WebIdentity`, not the API.
 */
export function createWebRouter(deps: WebDependencies): express.Router {
  const router = express.Router();
  const { identity } = deps;

  /** The header's "Signed in as …" (and Log out) for a signed-in request; null otherwise. */
  async function pageUser(req: Request, res: Response): Promise<PageUser | null> {
    if (!currentUser(req)) return null;
    const account = await identity.account(req.principal);
    return account ? { email: account.email, csrfToken: issueCsrfToken(req, res) } : null;
  }

  const page = (handler: (req: Request, res: Response) => Promise<void>) => async (req: Request, res: Response) => {
    try {
      await handler(req, res);
    } catch (error) {
      await sendFailure(req, res, error);
    }
  };

  async function sendFailure(req: Request, res: Response, error: unknown): Promise<void> {
    const user = await pageUser(req, res).catch(() => null);
    if (error instanceof DomainError && error.status === 404) {
      sendPage(
        res,
        renderMessagePage('Not found', 'There is nothing here, or you do not have access to it.', user),
        404,
      );
    } else if (error instanceof DomainError && error.status === 403) {
      sendPage(res, renderMessagePage('Not allowed', error.message || 'You are not allowed to do this.', user), 403);
    } else if (error instanceof DomainError && error.status < 500) {
      sendPage(res, renderMessagePage('Something is wrong with the request', messageOf(error), user), 400);
    } else {
      deps.logger.error({ err: error, requestId: req.requestId }, 'web page failed');
      sendPage(
        res,
        renderMessagePage('Something went wrong', `The error was logged with request id ${req.requestId}.`, user),
        500,
      );
    }
  }

  const forbidden = async (req: Request, res: Response, message: string) =>
    sendPage(res, renderMessagePage('Not allowed', message, await pageUser(req, res)), 403);

  /** The session of this browser before it signs in (ended by the sign-in), or null. */
  const previousSession = (req: Request) => currentUser(req)?.sessionId || null;

  function signedIn(req: Request, res: Response, session: WebSession, returnTo: string) {
    setSessionCookie(req, res, session.token, session.lifetimeMs);
    res.redirect(303, returnTo);
  }

  // --- sign-in ---------------------------------------------------------------------------------
  router.get(
    '/login',
    page(async (req, res) => {
      const returnTo = safeReturnTo(queryParam(req, 'return_to'));
      const body = loginForm({ csrfToken: issueCsrfToken(req, res), returnTo });
      sendPage(res, renderPage({ title: 'Log in', body, user: await pageUser(req, res), narrow: true }));
    }),
  );

  router.post(
    '/login',
    page(async (req, res) => {
      const returnTo = safeReturnTo(field(req, 'return_to'));
      const email = field(req, 'email').trim();
      const again = async (status: number, error: string) =>
        sendPage(
          res,
          renderPage({
            title: 'Log in',
            narrow: true,
            user: await pageUser(req, res),
            body: loginForm({ csrfToken: issueCsrfToken(req, res), returnTo, email, error }),
          }),
          status,
        );
      if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
      // NOTE: identity gives the same answer, after the same scrypt work, for an unknown e-mail and a wrong password.
      const session = await identity.signIn(email, field(req, 'password'), previousSession(req));
      if (!session) return again(400, 'Incorrect email or password.');
      signedIn(req, res, session, returnTo);
    }),
  );

  router.get(
    '/signup',
    page(async (req, res) => {
      const returnTo = safeReturnTo(queryParam(req, 'return_to'));
      const body = signupForm({ csrfToken: issueCsrfToken(req, res), returnTo });
      sendPage(res, renderPage({ title: 'Sign up', body, user: await pageUser(req, res), narrow: true }));
    }),
  );

  router.post(
    '/signup',
    page(async (req, res) => {
      const returnTo = safeReturnTo(field(req, 'return_to'));
      const email = field(req, 'email').trim();
      const password = field(req, 'password');
      const again = async (status: number, error: string) =>
        sendPage(
          res,
          renderPage({
            title: 'Sign up',
            narrow: true,
            user: await pageUser(req, res),
            body: signupForm({ csrfToken: issueCsrfToken(req, res), returnTo, email, error }),
          }),
          status,
        );
      if (!verifyCsrf(req)) return again(403, FORM_EXPIRED);
      if (password !== field(req, 'password_confirmation')) return again(400, 'The passwords do not match.');
      let session: WebSession;
      try {
        session = await identity.signUp(email, password, previousSession(req));
      } catch (error) {
        if (error instanceof PolarRequestValidationError) return again(400, messageOf(error));
        throw error;
      }
      signedIn(req, res, session, returnTo);
    }),
  );

  router.post(
    '/logout',
    page(async (req, res) => {
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const user = currentUser(req);
      if (user?.sessionId) await identity.signOut(user.sessionId);
      clearSessionCookie(req, res);
      res.redirect(303, '/login');
    }),
  );

  // --- settings --------------------------------------------------------------------------------
  async function showSettings(
    req: Request,
    res: Response,
    status = 200,
    form: { error?: string; name?: string; slug?: string } = {},
  ) {
    const [organizations, user] = await Promise.all([identity.organizations(req.principal), pageUser(req, res)]);
    sendPage(
      res,
      renderPage({
        title: 'Settings',
        user,
        body: settingsBody({ organizations, csrfToken: issueCsrfToken(req, res), ...form }),
      }),
      status,
    );
  }

  router.get(
    '/settings',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      await showSettings(req, res);
    }),
  );

  router.post(
    '/settings/organizations',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const name = field(req, 'name').trim();
      const slug = field(req, 'slug').trim();
      try {
        const organization = await identity.createOrganization(req.principal, { name, slug });
        res.redirect(303, `/settings/organizations/${organization.id}`);
      } catch (error) {
        if (!(error instanceof PolarRequestValidationError)) throw error;
        await showSettings(req, res, 400, { error: messageOf(error), name, slug });
      }
    }),
  );

  /** The organization page's data for the signed-in user; ResourceNotFound for non-members. */
  const organizationPage = (req: Request) => identity.organization(req.principal, req.params.id as string);

  async function showOrganization(
    req: Request,
    res: Response,
    { organization, tokens }: OrganizationPage,
    extra: {
      status?: number;
      error?: string;
      notice?: string;
      form?: { comment?: string; scopes?: string[]; expiresIn?: string };
    } = {},
  ) {
    sendPage(
      res,
      renderPage({
        title: `${organization.name} · Settings`,
        user: await pageUser(req, res),
        body: organizationBody({
          organization,
          tokens,
          canManage: organization.canManage,
          csrfToken: issueCsrfToken(req, res),
          notice: extra.notice,
          error: extra.error,
          form: extra.form,
        }),
      }),
      extra.status ?? 200,
    );
  }

  router.get(
    '/settings/organizations/:id',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      const notice = queryParam(req, 'revoked') ? 'The access token was revoked.' : undefined;
      await showOrganization(req, res, await organizationPage(req), { notice });
    }),
  );

  router.post(
    '/settings/organizations/:id/tokens',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const current = await organizationPage(req);
      const { organization } = current;
      if (!organization.canManage)
        return forbidden(req, res, 'Only owners and admins of the organization can create access tokens.');
      const comment = field(req, 'comment').trim();
      const scopes = [...new Set(fields(req, 'scopes'))];
      const expiresIn = field(req, 'expires_in');
      const form = { comment, scopes, expiresIn };
      const invalid = (error: string) => showOrganization(req, res, current, { status: 400, error, form });
      if (comment.length > MAX_COMMENT) return invalid(`The comment is longer than ${MAX_COMMENT} characters.`);
      if (!scopes.length) return invalid('Choose at least one scope.');
      if (!EXPIRY_OPTIONS.some(o => o.value === expiresIn)) return invalid('Choose one of the offered expiries.');
      let created: Awaited<ReturnType<WebIdentity['createOrganizationAccessToken']>>;
      try {
        created = await identity.createOrganizationAccessToken(req.principal, organization.id, {
          comment,
          scopes,
          expiresIn: expiresIn || null,
        });
      } catch (error) {
        if (error instanceof PolarRequestValidationError) return invalid(messageOf(error));
        throw error;
      }
      sendPage(
        res,
        renderPage({
          title: 'Access token created',
          user: await pageUser(req, res),
          body: tokenCreatedBody({ organization, raw: created.raw, token: created.token }),
        }),
      );
    }),
  );

  router.post(
    '/settings/organizations/:id/tokens/:tokenId/revoke',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const { organization } = await organizationPage(req);
      if (!organization.canManage)
        return forbidden(req, res, 'Only owners and admins of the organization can revoke access tokens.');
      await identity.revokeOrganizationAccessToken(req.principal, organization.id, req.params.tokenId as string);
      res.redirect(303, `/settings/organizations/${organization.id}?revoked=1`);
    }),
  );

  return router;
}

/** One text field of the posted form ('' when absent or repeated). */
function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeated field of the posted form (checkboxes). */
function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A query parameter (the app's query parser is off: it parses queries itself). */
function queryParam(req: Request, name: string): string | null {
  return new URL(req.originalUrl, 'http://local').searchParams.get(name);
}

function messageOf(error: DomainError): string {
  const issues = error.details as ValidationIssue[] | undefined;
  return Array.isArray(issues) && issues.length ? issues.map(i => i.msg).join(' ') : error.message;
}
