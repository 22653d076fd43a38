import type { Request, Response } from 'express';
import type { DomainError, ValidationIssue } from '../../../kit/errors.js';
import type { OrganizationProfile } from '../../../subgraphs/identity/contract.js';
import { html } from '../../web-kit/html.js';
import { sendPage } from '../../web-kit/layout.js';
import { renderPortalPage } from './portal-layout.js';
import { portalBase } from './portal-session.js';

/** What the portal's routers share: the answers that are plain messages, and form and query fields. */
export { FORM_EXPIRED } from '../../web-kit/csrf.js';

export const LINK_EXPIRED = 'This link has expired. Ask the seller for a new one, or sign in with your e-mail.';

/** `?done=` of the redirect after a change → the notice the next page shows. */
export const NOTICES: Record<string, string> = {
  canceled: 'Your subscription will be canceled at the end of the current period.',
  uncanceled: 'Your subscription will continue.',
  changed: 'Your plan was changed.',
  seats: 'Your seats were changed.',
  claimed: 'Your seat is claimed: you are signed in to the portal.',
  billing: 'Your billing details were saved.',
  'email-sent': 'A link to confirm your new address is on its way to it; the address changes once you follow it.',
  email: 'Your e-mail address was changed.',
  deactivated: 'The activation was removed: the license key can be activated again in its place.',
  card: 'Your card was saved; renewals are charged to it.',
  paid: 'Thank you: your payment was sent. The order shows as paid once it is through.',
  'card-failed': 'Your bank did not confirm the card, so it was not saved.',
  'pay-failed': 'Your bank did not confirm the payment, so nothing was charged.',
};

export function message(
  res: Response,
  organization: OrganizationProfile | null,
  title: string,
  text: string,
  status: number,
): void {
  const seller = organization ?? { name: 'Customer portal', slug: '' };
  const back = organization ? html`<p><a href="${portalBase(organization.slug)}">Back to the portal</a></p>` : null;
  sendPage(
    res,
    renderPortalPage({
      title,
      organization: seller,
      narrow: true,
      body: html`<h1>${title}</h1><div class="card"><p>${text}</p>${back}</div>`,
    }),
    status,
  );
}

/** One text field of the posted form ('' when absent or repeated). */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

export function queryParam(req: Request, name: string): string | null {
  return new URL(req.originalUrl, 'http://local').searchParams.get(name);
}

export function messageOf(error: DomainError): string {
  const issues = error.details as ValidationIssue[] | undefined;
  return Array.isArray(issues) && issues.length ? issues.map(i => i.msg).join(' ') : error.message;
}
