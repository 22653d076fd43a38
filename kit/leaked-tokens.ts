import type { RpcContract } from './http/signed-rpc.js';

/**
 * Leaked-token revocation (GitHub secret scanning, docs/polar/auth.md#secret-scanning). Each subgraph that stores
 * credentials implements `LeakedTokenRevoker` for the families it owns (identity: organization and
 * personal access tokens, OAuth tokens, client secrets and registration tokens, authorization codes,
 * web sessions; billing: customer sessions). The REST adapter asks each in turn: in-process when
 * embedded, over signed JSON RPC (`LEAKED_TOKEN_RPC`) when distributed. Plain JSON in and out.
 */

/** Which credential a leaked token turned out to be. */
export type LeakedTokenKind =
  | 'organization_access_token'
  | 'personal_access_token'
  | 'oauth2_access_token'
  | 'oauth2_refresh_token'
  | 'oauth2_client_secret'
  | 'oauth2_client_registration_token'
  | 'oauth2_authorization_code'
  | 'user_session'
  | 'customer_session';

/** A live credential that was just revoked, and whom to tell (never the token itself). */
export interface LeakedTokenRevocation {
  kind: LeakedTokenKind;
  /** The revoked row (token, client, code or session id). */
  id: string;
  owner: { type: 'user' | 'organization' | 'customer' | 'oauth2_client'; id: string };
  /** The name its owner gave it (a token's comment, an OAuth client's name), for the owner's e-mail; null: none. */
  label?: string | null;
  /** The organization it belongs to, when there is one (a customer session's seller, an OAT's organization). */
  organizationId?: string | null;
}

/** What GitHub told us about one leaked token (its report item), besides the token. */
export interface LeakReport {
  url: string | null;
  source: string;
}

/** What was revoked, and how many addresses its owner's e-mail went to before the answer. */
export interface LeakedTokenOutcome extends LeakedTokenRevocation {
  /**
   * The e-mail to the owner was written in the revocation's transaction and handed to the mail outbox:
   * to this many addresses before the answer (0: nobody to tell), or null when the outbox could not be
   * reached then; the owner-notice relay hands it over later, and it is never lost.
   */
  emailed: number | null;
}

export interface LeakedTokenRevoker {
  /**
   * Finds `token` by its HMAC among this subgraph's credentials; when it is live, revokes it and, in the
   * same transaction, records the owner's e-mail (kit/email/leak-notice.ts, owner-notices.ts); then tells
   * every process (PrincipalCache.announce) and answers what it was. Unknown, expired or already
   * revoked: null.
   */
  revokeLeaked(token: string, report: LeakReport): Promise<LeakedTokenOutcome | null>;
}

/** Where a test kills the process: a revocation committed, its e-mail not yet handed to the outbox. */
export const LEAK_NOTICE_HANDOVER_FAULT = 'leaked-token.before-notice-handover';

/** Served by identity and by billing at `POST /internal/leaked-tokens/revokeLeaked` (distributed topology). */
export const LEAKED_TOKEN_RPC: RpcContract<LeakedTokenRevoker> = {
  prefix: '/internal/leaked-tokens',
  methods: { revokeLeaked: true },
};
