import type { LeakedTokenKind, LeakedTokenRevocation, LeakReport } from '../leaked-tokens.js';
import { TOKEN_PREFIXES } from '../tokens.js';
import type { NotifiedOwner, OwnerEmail } from './owner-mailbox.js';

export const LEAKED_TOKEN_EMAIL = 'leaked_token_revoked';

const NAMES: Record<LeakedTokenKind, string> = {
  organization_access_token: 'organization access token',
  personal_access_token: 'personal access token',
  oauth2_access_token: 'OAuth access token',
  oauth2_refresh_token: 'OAuth refresh token',
  oauth2_client_secret: 'OAuth client secret',
  oauth2_client_registration_token: 'OAuth client registration token',
  oauth2_authorization_code: 'OAuth authorization code',
  user_session: 'web session',
  customer_session: 'customer session token',
};

/** What the owner does next, per family: what stopped working and how to replace it. */
const NEXT_STEPS: Record<LeakedTokenKind, string> = {
  organization_access_token:
    'Create a new organization access token (settings page, or POST /v1/organization-access-tokens/), put it where the old one was used, and remove the leaked one from where it was published.',
  personal_access_token:
    'Create a new personal access token, put it where the old one was used, and remove the leaked one from where it was published.',
  oauth2_access_token:
    'Every access and refresh token of that authorization was ended: the application has to ask for authorization again. Tell its developer where the token was published.',
  oauth2_refresh_token:
    'Every access and refresh token of that authorization was ended: the application has to ask for authorization again. Tell its developer where the token was published.',
  oauth2_client_secret:
    'The secret was replaced by one nobody knows; tokens already issued stay valid. Register a new client (or delete this one) and keep its secret out of public code.',
  oauth2_client_registration_token:
    'The registration token was replaced by one nobody knows. Register a new client to manage it again.',
  oauth2_authorization_code: 'The code was marked used: authorize the application again.',
  user_session: 'That sign-in was ended: sign in again.',
  customer_session:
    'The session was deleted; the customer signs in again. Customer sessions are minted by your server (POST /v1/customer-sessions/): keep them out of public code and logs.',
};

/**
 * Whom to tell (GitHub's rule: the credential's owner; Polar's for who that is): the user of a
 * personal access token, a web session, an OAuth user token or code, or the developer of an OAuth
 * client; the organization's owners and admins for an organization access token or an OAuth token
 * granted to an organization, and for a customer session token: the seller minted it with its own
 * token (or served it in its pages), so the leak is in its code, and the customer could do nothing
 * about it. A client registered anonymously has nobody to tell: null (the log line remains).
 */
export function ownerToNotify(revoked: LeakedTokenRevocation): NotifiedOwner | null {
  switch (revoked.owner.type) {
    case 'user':
    case 'organization':
      return { type: revoked.owner.type, id: revoked.owner.id };
    case 'customer':
      return revoked.organizationId ? { type: 'organization', id: revoked.organizationId } : null;
    default:
      return null;
  }
}

/**
 * The owner's e-mail: which token (name and prefix, never the secret), where GitHub found it, revoked.
 * Composed by the subgraph that revoked it, in the revocation's transaction (owner-notices.ts).
 */
export function leakNotice(
  revoked: LeakedTokenRevocation,
  owner: NotifiedOwner,
  token: string,
  report: LeakReport,
): OwnerEmail {
  const name = NAMES[revoked.kind];
  const label = revoked.label ? ` "${revoked.label}"` : '';
  const prefix = prefixOf(token);
  return {
    // One e-mail per revoked row: a second report of it finds it revoked already and queues nothing.
    key: `leaked-token:${revoked.kind}:${revoked.id}`,
    kind: LEAKED_TOKEN_EMAIL,
    organizationId: revoked.organizationId ?? (owner.type === 'organization' ? owner.id : null),
    owner,
    subject: `Your ${name}${label} was found in public and has been revoked`,
    text: [
      `GitHub secret scanning found your ${name}${label} in public, and we revoked it: it no longer works.`,
      '',
      `Token: ${name}${label}${prefix ? `, starting with ${prefix}` : ''} (id ${revoked.id}). The token itself is never written in e-mails or logs.`,
      report.url
        ? `Where GitHub found it: ${report.url} (${report.source}).`
        : `Where GitHub found it: not given (${report.source}).`,
      '',
      NEXT_STEPS[revoked.kind],
    ].join('\n'),
  };
}

/** The family prefix of the token (`polar_oat_`), the only part of it that may be shown. */
function prefixOf(token: string): string | null {
  const known = Object.values(TOKEN_PREFIXES).filter(p => token.startsWith(p));
  return known.sort((a, b) => b.length - a.length)[0] ?? null;
}
