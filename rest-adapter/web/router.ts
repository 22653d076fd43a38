import express, { type Request, type Response } from 'express';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../kit/clock.js';
import { DomainError, PolarRequestValidationError, type ValidationIssue } from '../../kit/errors.js';
import type { Logger } from '../../kit/logger.js';
import type { IdentityContext } from '../../subgraphs/identity/context.js';
import { MANAGING_ROLES, MemberRole, Membership } from '../../subgraphs/identity/memberships/membership.entity.js';
import { OrganizationRepository } from '../../subgraphs/identity/organizations/organization.repository.js';
import type { IdentityServices } from '../../subgraphs/identity/services.js';
import { OrganizationAccessToken } from '../../subgraphs/identity/tokens/organization-access-token.entity.js';
import { User } from '../../subgraphs/identity/users/user.entity.js';
import { currentUser, requireSignIn, safeReturnTo } from './auth.js';
import { clearSessionCookie, setSessionCookie } from './cookies.js';
import { issueCsrfToken, verifyCsrf } from './csrf.js';
import { renderMessagePage, renderPage, sendPage, type PageUser } from './layout.js';
import { loginForm, signupForm } from './pages/sign-in.js';
import {
  EXPIRY_OPTIONS,
  organizationBody,
  type OrganizationSummary,
  settingsBody,
  tokenCreatedBody,
} from './pages/settings.js';

/** What the pages need: the identity use cases of this environment, in-process. */
export interface WebDependencies {
  identity: { orm: MikroORM; services: IdentityServices; clock: Clock };
  logger: Logger;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_COMMENT = 200;
const FORM_EXPIRED = 'This form has expired or did not come from this site. Please try again.';

/**
 * The pages a person signs in on and the organization settings (server-rendered HTML, no scripts):
 * `/login`, `/signup`, `/logout`, `/settings`, `/settings/organizations/{id}` and its token forms.
 * Mounted through `createApp`'s `extensions`; it calls the identity services directly, not the API.
 */
export function createWebRouter(deps: WebDependencies): express.Router {
  const router = express.Router();
  const { orm, services, clock } = deps.identity;

  const context = (req: Request): IdentityContext => ({
    em: orm.em.fork(),
    principal: req.principal,
    clock,
    requestId: req.requestId,
    services,
  });

  /** The header's "Signed in as …" (and Log out) for a signed-in request; null otherwise. */
  async function pageUser(req: Request, res: Response, ctx?: IdentityContext): Promise<PageUser | null> {
    const user = currentUser(req);
    if (!user) return null;
    const row = await (ctx?.em ?? orm.em.fork()).findOne(User, { id: user.id }, { fields: ['email'] });
    return row ? { email: row.email, csrfToken: issueCsrfToken(req, res) } : null;
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

  async function signIn(req: Request, res: Response, userId: string, returnTo: string): Promise<void> {
    const ctx = { em: orm.em.fork(), clock };
    const previous = currentUser(req);
    if (previous?.sessionId) await services.sessions.revoke(ctx, previous.sessionId);
    const { session, raw } = await services.sessions.create(ctx, userId);
    setSessionCookie(req, res, raw, session.expiresAt.getTime() - session.createdAt.getTime());
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
      // NOTE: the same answer, after the same scrypt work, for an unknown e-mail and a wrong password.
      const user = await services.users.authenticate(orm.em.fork(), email, field(req, 'password'));
      if (!user) return again(400, 'Incorrect email or password.');
      await signIn(req, res, user.id, returnTo);
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
      let userId: string;
      try {
        userId = (await services.users.create({ em: orm.em.fork(), clock }, email, password)).id;
      } catch (error) {
        if (error instanceof PolarRequestValidationError) return again(400, messageOf(error));
        if ((error as { code?: string }).code === '23505') return again(400, 'A user with this email already exists.');
        throw error;
      }
      await signIn(req, res, userId, returnTo);
    }),
  );

  router.post(
    '/logout',
    page(async (req, res) => {
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const user = currentUser(req);
      if (user?.sessionId) await services.sessions.revoke({ em: orm.em.fork(), clock }, user.sessionId);
      clearSessionCookie(req, res);
      res.redirect(303, '/login');
    }),
  );

  // --- settings --------------------------------------------------------------------------------
  async function organizationsOf(ctx: IdentityContext, userId: string): Promise<OrganizationSummary[]> {
    const [{ items }, memberships] = await Promise.all([
      services.organizations.list(ctx, { page: 1, limit: 100, sorting: ['name'] }),
      ctx.em.find(Membership, { userId }, { fields: ['organizationId', 'role'] }),
    ]);
    const roles = new Map(memberships.map(m => [m.organizationId, m.role]));
    return items.map(o => ({ id: o.id, name: o.name, slug: o.slug, role: roles.get(o.id) ?? 'member' }));
  }

  async function showSettings(
    req: Request,
    res: Response,
    status = 200,
    form: { error?: string; name?: string; slug?: string } = {},
  ) {
    const ctx = context(req);
    const organizations = await organizationsOf(ctx, currentUser(req)!.id);
    sendPage(
      res,
      renderPage({
        title: 'Settings',
        user: await pageUser(req, res, ctx),
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
        const organization = await services.organizations.create(context(req), { name, slug });
        res.redirect(303, `/settings/organizations/${organization.id}`);
      } catch (error) {
        if (!(error instanceof PolarRequestValidationError)) throw error;
        await showSettings(req, res, 400, { error: messageOf(error), name, slug });
      }
    }),
  );

  /** The organization as the signed-in user sees it, with their role; ResourceNotFound for non-members. */
  async function organizationFor(
    ctx: IdentityContext,
    req: Request,
  ): Promise<OrganizationSummary & { canManage: boolean }> {
    const id = req.params.id as string;
    if (!UUID.test(id)) throw new DomainError('ResourceNotFound', 'Not found', 404);
    const organization = await services.organizations.get(ctx, id);
    const role = (await new OrganizationRepository(ctx.em).roleOf(currentUser(req)!.id, id)) ?? MemberRole.MEMBER;
    return { id, name: organization.name, slug: organization.slug, role, canManage: MANAGING_ROLES.has(role) };
  }

  async function showOrganization(
    req: Request,
    res: Response,
    ctx: IdentityContext,
    organization: OrganizationSummary & { canManage: boolean },
    extra: {
      status?: number;
      error?: string;
      notice?: string;
      form?: { comment?: string; scopes?: string[]; expiresIn?: string };
    } = {},
  ) {
    const { items } = await services.organizationAccessTokens.list(ctx, {
      organizationId: organization.id,
      page: 1,
      limit: 100,
    });
    sendPage(
      res,
      renderPage({
        title: `${organization.name} · Settings`,
        user: await pageUser(req, res, ctx),
        body: organizationBody({
          organization,
          tokens: items,
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
      const ctx = context(req);
      const organization = await organizationFor(ctx, req);
      const notice = queryParam(req, 'revoked') ? 'The access token was revoked.' : undefined;
      await showOrganization(req, res, ctx, organization, { notice });
    }),
  );

  router.post(
    '/settings/organizations/:id/tokens',
    page(async (req, res) => {
      if (!requireSignIn(req, res)) return;
      if (!verifyCsrf(req)) return forbidden(req, res, FORM_EXPIRED);
      const ctx = context(req);
      const organization = await organizationFor(ctx, req);
      if (!organization.canManage)
        return forbidden(req, res, 'Only owners and admins of the organization can create access tokens.');
      const comment = field(req, 'comment').trim();
      const scopes = [...new Set(fields(req, 'scopes'))];
      const expiresIn = field(req, 'expires_in');
      const form = { comment, scopes, expiresIn };
      const invalid = (error: string) => showOrganization(req, res, ctx, organization, { status: 400, error, form });
      if (comment.length > MAX_COMMENT) return invalid(`The comment is longer than ${MAX_COMMENT} characters.`);
      if (!scopes.length) return invalid('Choose at least one scope.');
      if (!EXPIRY_OPTIONS.some(o => o.value === expiresIn)) return invalid('Choose one of the offered expiries.');
      let created: Awaited<ReturnType<typeof services.organizationAccessTokens.create>>;
      try {
        created = await services.organizationAccessTokens.create(ctx, {
          organizationId: organization.id,
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
          user: await pageUser(req, res, ctx),
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
      const ctx = context(req);
      const organization = await organizationFor(ctx, req);
      if (!organization.canManage)
        return forbidden(req, res, 'Only owners and admins of the organization can revoke access tokens.');
      const tokenId = req.params.tokenId as string;
      const token = UUID.test(tokenId)
        ? await ctx.em.findOne(OrganizationAccessToken, {
            id: tokenId,
            organizationId: organization.id,
            deletedAt: null,
          })
        : null;
      if (!token) throw new DomainError('ResourceNotFound', 'Not found', 404);
      await services.organizationAccessTokens.delete(ctx, token.id);
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
