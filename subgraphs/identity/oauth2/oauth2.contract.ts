import type { RpcContract } from '../../../kit/http/signed-rpc.js';
import type { Principal } from '../../../kit/principal.js';

/**
 * What the REST adapter's OAuth router asks of the identity subgraph. Pure types, no ORM: the adapter
 * imports this file only. Every argument and result is plain JSON, so the same contract can be served
 * in-process (embedded topology, `InProcessOAuth2Provider`) or over identity's signed internal
 * endpoints (distributed topology, `signedRpcClient(OAUTH2_PROVIDER_RPC, …)`). Absent values are
 * null or missing object keys, never undefined arguments.
 */

/** An HTTP answer for an OAuth endpoint, written as is by the router. */
export interface OAuthHttpResult {
  status: number;
  headers?: Record<string, string>;
  /** JSON body; undefined for an empty body (204). */
  body?: unknown;
}

/** A form-encoded OAuth endpoint call (token, revoke, introspect). */
export interface OAuthFormRequest {
  /** The `Authorization` header as sent. */
  authorization?: string;
  contentType?: string;
  /** The parsed form, one value per key. */
  body: Record<string, string>;
  /** Keys that appeared more than once in the form (RFC 6749 §3.2: an error). */
  repeated: string[];
  /** Keys given in the URL's query string (credentials there are refused). */
  queryKeys: string[];
}

/** The signed-in person on the authorization page (the web session). */
export interface SignedInPerson {
  userId: string;
  sessionId: string;
}

/** The parameters of an authorization request, first value of each. */
export type AuthorizationParams = Record<string, string>;

export interface ConsentOrganization {
  id: string;
  name: string;
  slug: string;
}

export interface ConsentView {
  client: {
    clientId: string;
    clientName: string;
    clientUri: string | null;
    logoUri: string | null;
    tosUri: string | null;
    policyUri: string | null;
  };
  user: { id: string; email: string };
  subType: 'user' | 'organization';
  scopes: { scope: string; description: string }[];
  organizations: ConsentOrganization[];
  /** The validated request, to carry to the consent form (hidden inputs). */
  request: AuthorizationParams;
}

export type AuthorizeOutcome =
  /** Unknown client or unusable redirect URI: show an error, never redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'error_page'; error: string; description: string }
  /** Back to the client: a code, or an error (RFC 6749 §4.1.2, §4.1.2.1). */
  | { kind: 'redirect'; location: string }
  /** Nobody is signed in, or the person must sign in again (prompt=login, max_age); drop these params on the way back. */
  | { kind: 'login'; signedOut: boolean; dropParams: string[] }
  | { kind: 'consent'; view: ConsentView };

export interface ConsentDecision {
  allow: boolean;
  /** The chosen organization, for `sub_type=organization`. */
  organizationId?: string;
}

export interface OAuth2Provider {
  /** `GET /oauth2/authorize`: validate, then decide between sign-in, consent, or an immediate redirect. */
  authorize(
    issuer: string,
    params: AuthorizationParams,
    repeated: string[],
    person: SignedInPerson | null,
  ): Promise<AuthorizeOutcome>;
  /** `POST /oauth2/consent`: the person's answer to the consent page. */
  consent(
    issuer: string,
    params: AuthorizationParams,
    person: SignedInPerson,
    decision: ConsentDecision,
  ): Promise<AuthorizeOutcome>;
  token(issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult>;
  revoke(issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult>;
  introspect(issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult>;
  /** `GET|POST /v1/oauth2/userinfo` for the request's (already resolved) principal. */
  userinfo(issuer: string, principal: Principal): Promise<OAuthHttpResult>;
  jwks(): Promise<OAuthHttpResult>;
  /** RFC 7591 registration. `registrant`: the signed-in web user, or null (anonymous). */
  registerClient(issuer: string, body: unknown, registrant: string | null): Promise<OAuthHttpResult>;
  /** RFC 7592. `bearer`: the raw registration access token sent; `userId`: the signed-in web user. */
  readClient(issuer: string, clientId: string, caller: ClientManagementCaller): Promise<OAuthHttpResult>;
  updateClient(
    issuer: string,
    clientId: string,
    body: unknown,
    caller: ClientManagementCaller,
  ): Promise<OAuthHttpResult>;
  deleteClient(issuer: string, clientId: string, caller: ClientManagementCaller): Promise<OAuthHttpResult>;
}

export interface ClientManagementCaller {
  bearer?: string;
  userId?: string;
}

/** Served by identity at `POST /internal/oauth2/<method>` in the distributed topology. */
export const OAUTH2_PROVIDER_RPC: RpcContract<OAuth2Provider> = {
  prefix: '/internal/oauth2',
  methods: {
    authorize: true,
    consent: true,
    token: true,
    revoke: true,
    introspect: true,
    userinfo: true,
    jwks: true,
    registerClient: true,
    readClient: true,
    updateClient: true,
    deleteClient: true,
  },
};
