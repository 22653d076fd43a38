import type { Request, Response } from 'express';
import type { EnvironmentName } from '../../../kit/config.js';
import { DomainError, ResourceNotFound } from '../../../kit/errors.js';
import type { OrganizationSummary } from '../../../subgraphs/identity/contract.js';
import { requireSignIn } from '../../web-kit/auth.js';
import { issueCsrfToken, verifyCsrf } from '../../web-kit/csrf.js';
import type { PageUser } from '../../web-kit/layout.js';
import { FORM_EXPIRED, forbidden, messageOf, page, pageUser, type WebDependencies } from '../account-pages.js';
import type { PortalApi, PortalCall } from '../portal/portal-api.js';

/** What the dashboard's pages need: the pages' identity contract, the API's own route objects, the environment. */
export interface DashboardDependencies extends WebDependencies {
  api: PortalApi;
  environment: EnvironmentName;
  /** This environment's public URL: links the API answers on it become paths of this site. */
  publicUrl: string;
}

/**
 * One request of a dashboard page, for a signed-in member of `organization`. `call` runs a `/v1`
 * operation's own route object (access rule, schemas, named GraphQL operation, wire mapping) as the
 * signed-in user: the dashboard has no business path of its own, and what the API refuses, the page
 * refuses with the API's error (docs/dashboard.md).
 */
export interface DashboardContext {
  req: Request;
  res: Response;
  deps: DashboardDependencies;
  organization: OrganizationSummary;
  organizations: OrganizationSummary[];
  csrfToken: string;
  user: PageUser | null;
  call<T = any>(operationId: string, input?: PortalCall): Promise<T>;
  /** A query parameter of the page's URL (the app's query parser is off). */
  query(name: string): string | null;
}

export type DashboardHandler = (ctx: DashboardContext) => Promise<void>;

/** One page or action of a section: its method, its path under `/dashboard/:organizationId`, its handler. */
export interface DashboardRoute {
  method: 'get' | 'post';
  path: string;
  handler: DashboardHandler;
}

/**
 * The handler of a page under `/dashboard/:organizationId/…`: signed in (else to /login), a member of
 * the organization (else the same 404 page a stranger gets from the API), and for a post a valid CSRF
 * token (else 403, nothing changed).
 */
export function dashboardPage(deps: DashboardDependencies, handler: DashboardHandler) {
  return page(deps, async (_deps, req, res) => {
    if (!requireSignIn(req, res)) return;
    if (req.method === 'POST' && !verifyCsrf(req)) return forbidden(deps, req, res, FORM_EXPIRED);
    const [organizations, user] = await Promise.all([
      deps.identity.organizations(req.principal),
      pageUser(deps, req, res),
    ]);
    const organization = organizations.find(o => o.id === req.params.organizationId);
    if (!organization) throw new ResourceNotFound();
    const url = new URL(req.originalUrl, 'http://local');
    await handler({
      req,
      res,
      deps,
      organization,
      organizations,
      csrfToken: issueCsrfToken(req, res),
      user,
      call: (operationId, input = {}) => deps.api.call(operationId, input, req.principal, req.requestId),
      query: name => url.searchParams.get(name),
    });
  });
}

/** A 303 to a page of this organization's dashboard, with one of the page's fixed notices. */
export function redirectTo(ctx: DashboardContext, path: string, notice?: string): void {
  const target = `/dashboard/${ctx.organization.id}${path}`;
  ctx.res.redirect(303, notice ? `${target}${target.includes('?') ? '&' : '?'}notice=${notice}` : target);
}

/**
 * An action the API refused for the caller (4xx: not allowed, not found, invalid): the API's message and
 * status, shown on the section's page by `show`. Anything else is the page's failure (logged, 500).
 */
export async function whenRefused(
  action: () => Promise<void>,
  show: (error: string, status: number) => Promise<void>,
): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof DomainError) || error.status >= 500) throw error;
    await show(messageOf(error), error.status);
  }
}

/** The posted form's text field ('' when absent). */
export function formField(ctx: DashboardContext, name: string): string {
  const value = (ctx.req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a posted field that may repeat (checkboxes): the form parser gives one as a string, several as a list. */
export function formValues(ctx: DashboardContext, name: string): string[] {
  const value = (ctx.req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * `resource` when it belongs to the page's organization. The API answers the user's resources of every
 * organization they belong to; a page of one organization shows only that one's (another's is not found).
 */
export function ofThisOrganization<T extends Record<string, any>>(
  ctx: DashboardContext,
  resource: T,
  organizationId: string | undefined = resource.organization_id ?? resource.customer?.organization_id,
): T {
  if (organizationId !== ctx.organization.id) throw new ResourceNotFound();
  return resource;
}

/**
 * `POST …/:id/delete` of a resource: read first through `get` (another organization's is not found), then
 * deleted through `remove`, back to `path` with `notice`; a refusal is shown by `show` with the API's message.
 */
export function deleteOfThisOrganization(
  operations: { get: string; remove: string },
  back: { path: string; notice: string },
  show: (ctx: DashboardContext, refusal: { error: string; status: number }) => Promise<void>,
): DashboardHandler {
  return async ctx => {
    const id = ctx.req.params.id as string;
    ofThisOrganization(ctx, await ctx.call<Record<string, any>>(operations.get, { params: { id } }));
    await whenRefused(
      async () => {
        await ctx.call(operations.remove, { params: { id } });
        redirectTo(ctx, back.path, back.notice);
      },
      (error, status) => show(ctx, { error, status }),
    );
  };
}
