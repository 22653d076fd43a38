import type { Request, Response } from 'express';
import { DomainError, type ValidationIssue } from '../../kit/errors.js';
import type { Logger } from '../../kit/logger.js';
import type { WebIdentity } from '../../subgraphs/identity/contract.js';
import { currentUser } from '../web-kit/auth.js';
import { issueCsrfToken } from '../web-kit/csrf.js';
import { renderMessagePage, sendPage, type PageUser } from '../web-kit/layout.js';

/**
 * What the sign-in and settings pages need: identity's web contract, in-process (embedded topology) or
 * over its signed internal endpoints (distributed topology). The pages never touch identity's tables
 * themselves.
 */
export interface WebDependencies {
  identity: WebIdentity;
  logger: Logger;
}

export { FORM_EXPIRED } from '../web-kit/csrf.js';

/** A page's handler, with the dependencies of the pages. */
export type PageHandler = (deps: WebDependencies, req: Request, res: Response) => Promise<void>;

/** The header's "Signed in as …" (and Log out) for a signed-in request; null otherwise. */
export async function pageUser(deps: WebDependencies, req: Request, res: Response): Promise<PageUser | null> {
  if (!currentUser(req)) return null;
  const account = await deps.identity.account(req.principal);
  return account ? { email: account.email, csrfToken: issueCsrfToken(req, res) } : null;
}

/** An Express handler for `handler`: whatever it throws becomes a page (not found, not allowed, failed). */
export const page = (deps: WebDependencies, handler: PageHandler) => async (req: Request, res: Response) => {
  try {
    await handler(deps, req, res);
  } catch (error) {
    await sendFailure(deps, req, res, error);
  }
};

async function sendFailure(deps: WebDependencies, req: Request, res: Response, error: unknown): Promise<void> {
  const user = await pageUser(deps, req, res).catch(() => null);
  if (error instanceof DomainError && error.status === 404) {
    sendPage(res, renderMessagePage('Not found', 'There is nothing here, or you do not have access to it.', user), 404);
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

export const forbidden = async (deps: WebDependencies, req: Request, res: Response, message: string) =>
  sendPage(res, renderMessagePage('Not allowed', message, await pageUser(deps, req, res)), 403);

/** One text field of the posted form ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/** Every value of a repeated field of the posted form (checkboxes). */
export function fields(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A query parameter (the app's query parser is off: it parses queries itself). */
export function queryParam(req: Request, name: string): string | null {
  return new URL(req.originalUrl, 'http://local').searchParams.get(name);
}

export function messageOf(error: DomainError): string {
  const issues = error.details as ValidationIssue[] | undefined;
  return Array.isArray(issues) && issues.length ? issues.map(i => i.msg).join(' ') : error.message;
}
