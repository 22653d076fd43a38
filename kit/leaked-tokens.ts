import type { RpcContract } from './http/signed-rpc.js';

/**
 * Leaked-token revocation (GitHub secret scanning, polar-api.md §5.6). Each subgraph that stores
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

export interface LeakedTokenRevoker {
  /**
   * Finds `token` by its HMAC among this subgraph's credentials; when it is live, revokes it, tells
   * every process (PrincipalCache.announce) and answers what it was. Unknown, expired or already
   * revoked: null.
   */
  revokeLeaked(token: string): Promise<LeakedTokenRevocation | null>;
}

/** Served by identity and by billing at `POST /internal/leaked-tokens/revokeLeaked` (distributed topology). */
export const LEAKED_TOKEN_RPC: RpcContract<LeakedTokenRevoker> = {
  prefix: '/internal/leaked-tokens',
  methods: { revokeLeaked: true },
};
