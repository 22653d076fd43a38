import express, { type Request, type Response } from 'express';
import type { EnvironmentName } from '../../../kit/config.js';
import { PolarRequestValidationError } from '../../../kit/errors.js';
import type { OrganizationPage, WebIdentity } from '../../../subgraphs/identity/contract.js';
import { requireSignIn } from '../../web-kit/auth.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import { renderPage, sendPage } from '../../web-kit/layout.js';
import {
  FORM_EXPIRED,
  field,
  fields,
  forbidden,
  messageOf,
  type PageHandler,
  page,
  pageUser,
  queryParam,
  type WebDependencies,
} from '../account-pages.js';
import { EXPIRY_OPTIONS, organizationBody, settingsBody, tokenCreatedBody } from './settings.views.js';

const MAX_COMMENT = 200;

/**
 * The organization settings (server-rendered HTML, no scripts): `/settings`,
 * `/settings/organizations/{id}` and its token forms. Mounted through `createApp`'s `extensions`; it
 * asks identity through `WebIdentity`, not the API.
 */
export function settingsRoutes(base: WebDependencies, settings: SettingsOptions): express.Router {
  const deps: SettingsDependencies = { ...base, ...settings };
  const router = express.Router();
  router.get('/settings', page(deps, signedIn(deps, showSettings)));
  router.post('/settings/organizations', page(deps, signedIn(deps, createOrganization)));
  router.get('/settings/organizations/:id', page(deps, signedIn(deps, showOrganizationPage)));
  router.post('/settings/organizations/:id/tokens', page(deps, signedIn(deps, createToken)));
  router.post('/settings/organizations/:id/tokens/:tokenId/revoke', page(deps, signedIn(deps, revokeToken)));
  return router;
}

/** What the settings pages add to the pages' dependencies. */
export interface SettingsOptions {
  /** Shown on every settings page: tokens made there work on this environment only. */
  environment: EnvironmentName;
  /** The scopes the token form offers (`offeredScopes` of the served routes). */
  scopes: readonly string[];
}
type SettingsDependencies = WebDependencies & SettingsOptions;

type Handler = (deps: SettingsDependencies, req: Request, res: Response) => Promise<void>;

/** Every settings page is for a signed-in person: anyone else goes to /login first. */
const signedIn =
  (deps: SettingsDependencies, handler: Handler): PageHandler =>
  async (_pages, req, res) => {
    if (!requireSignIn(req, res)) return;
    await handler(deps, req, res);
  };

async function renderSettings(
  deps: SettingsDependencies,
  req: Request,
  res: Response,
  status = 200,
  form: { error?: string; name?: string; slug?: string } = {},
) {
  const [organizations, user] = await Promise.all([
    deps.identity.organizations(req.principal),
    pageUser(deps, req, res),
  ]);
  sendPage(
    res,
    renderPage({
      title: 'Settings',
      user,
      body: settingsBody({
        environment: deps.environment,
        organizations,
        csrfToken: issueCsrfToken(req, res),
        ...form,
      }),
    }),
    status,
  );
}

const showSettings: Handler = (deps, req, res) => renderSettings(deps, req, res);

async function createOrganization(deps: SettingsDependencies, req: Request, res: Response) {
  if (!verifyCsrf(req)) return forbidden(deps, req, res, FORM_EXPIRED);
  const name = field(req, 'name').trim();
  const slug = field(req, 'slug').trim();
  try {
    const organization = await deps.identity.createOrganization(req.principal, { name, slug });
    res.redirect(303, `/settings/organizations/${organization.id}`);
  } catch (error) {
    if (!(error instanceof PolarRequestValidationError)) throw error;
    await renderSettings(deps, req, res, 400, { error: messageOf(error), name, slug });
  }
}

/** The organization page's data for the signed-in user; ResourceNotFound for non-members. */
const organizationPage = (deps: SettingsDependencies, req: Request) =>
  deps.identity.organization(req.principal, req.params.id as string);

interface OrganizationPageExtras {
  status?: number;
  error?: string;
  notice?: string;
  form?: { comment?: string; scopes?: string[]; expiresIn?: string };
}

async function renderOrganization(
  deps: SettingsDependencies,
  req: Request,
  res: Response,
  { organization, tokens }: OrganizationPage,
  extra: OrganizationPageExtras = {},
) {
  sendPage(
    res,
    renderPage({
      title: `${organization.name} · Settings`,
      user: await pageUser(deps, req, res),
      body: organizationBody({
        environment: deps.environment,
        scopes: deps.scopes,
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

async function showOrganizationPage(deps: SettingsDependencies, req: Request, res: Response) {
  const notice = queryParam(req, 'revoked') ? 'The access token was revoked.' : undefined;
  await renderOrganization(deps, req, res, await organizationPage(deps, req), { notice });
}

async function createToken(deps: SettingsDependencies, req: Request, res: Response) {
  if (!verifyCsrf(req)) return forbidden(deps, req, res, FORM_EXPIRED);
  const current = await organizationPage(deps, req);
  const { organization } = current;
  if (!organization.canManage)
    return forbidden(deps, req, res, 'Only owners and admins of the organization can create access tokens.');
  const comment = field(req, 'comment').trim();
  const scopes = [...new Set(fields(req, 'scopes'))];
  const expiresIn = field(req, 'expires_in');
  const form = { comment, scopes, expiresIn };
  const invalid = (error: string) => renderOrganization(deps, req, res, current, { status: 400, error, form });
  if (comment.length > MAX_COMMENT) return invalid(`The comment is longer than ${MAX_COMMENT} characters.`);
  if (!scopes.length) return invalid('Choose at least one scope.');
  if (!EXPIRY_OPTIONS.some(o => o.value === expiresIn)) return invalid('Choose one of the offered expiries.');
  let created: Awaited<ReturnType<WebIdentity['createOrganizationAccessToken']>>;
  try {
    created = await deps.identity.createOrganizationAccessToken(req.principal, organization.id, {
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
      user: await pageUser(deps, req, res),
      body: tokenCreatedBody({ organization, raw: created.raw, token: created.token }),
    }),
  );
}

async function revokeToken(deps: SettingsDependencies, req: Request, res: Response) {
  if (!verifyCsrf(req)) return forbidden(deps, req, res, FORM_EXPIRED);
  const { organization } = await organizationPage(deps, req);
  if (!organization.canManage)
    return forbidden(deps, req, res, 'Only owners and admins of the organization can revoke access tokens.');
  await deps.identity.revokeOrganizationAccessToken(req.principal, organization.id, req.params.tokenId as string);
  res.redirect(303, `/settings/organizations/${organization.id}?revoked=1`);
}
