import type { Principal } from '../../../kit/principal.js';

/**
 * Whose counter a request spends (docs/interface.md#limits "per organization, customer or OAuth 2.0 client";
 * docs/polar/rate-limits.md for the rest): an OAuth token counts against its client, whatever it acts for; an
 * organization access token against its organization; a customer session against the customer; a
 * personal access token or web session against the user; an anonymous caller against its address.
 * The id alone is what `RATE_LIMIT_OVERRIDES` names.
 */
export interface CallerKey {
  key: string;
  id: string;
}

export function callerKeyOf(principal: Principal | undefined, ip: string): CallerKey {
  if (principal?.credential === 'oauth2_token' && principal.clientId)
    return { key: `oauth2_client:${principal.clientId}`, id: principal.clientId };
  if (principal?.subjectId && principal.subject !== 'anonymous')
    return { key: `${principal.subject}:${principal.subjectId}`, id: principal.subjectId };
  return { key: `ip:${ip}`, id: ip };
}
