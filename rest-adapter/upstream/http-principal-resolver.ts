import { createHash } from 'node:crypto';
import { ANONYMOUS, type Principal, type PrincipalResolver } from '../../kit/principal.js';
import { PrincipalCache, principalLookup } from '../../kit/principal-cache.js';
import { joinUrl } from '../../kit/http/peers.js';
import {
  INTERNAL_PRINCIPAL_PATH,
  type PrincipalRequestBody,
  signInternalRequest,
  type WireDomainError,
} from '../../kit/http/internal-auth.js';
import { fromWireDomainError } from '../../kit/http/wire-domain-error.js';
import { onwardHeaders } from '../../kit/http/onward-headers.js';

const REQUEST_TIMEOUT_MS = 5_000;

/**
 * Distributed topology: resolves the bearer (or session cookie) by asking the subgraph process that
 * owns it (`POST /internal/principal`, HMAC-signed with the internal key): identity for user and
 * organization credentials, billing for customer sessions (rest-adapter/main.ts routes by prefix).
 * Domain errors come back as
 * `{code, message, status}` and are rethrown as the same DomainError classes the in-process
 * resolver throws, so the adapter writes identical wire bodies (the OAuth-shaped 401 invalid_token).
 *
 * Successful resolutions are cached per credential while the cache is kept in step with revocations
 * (rest-adapter/main.ts attaches it to a LISTEN connection when DATABASE_URL is set; otherwise it
 * never answers): a burst of requests with one token costs one round trip. Failures are not cached
 * (a token created a moment ago must work).
 */
export class HttpPrincipalResolver implements PrincipalResolver {
  private readonly url: string;

  constructor(
    subgraphUrl: string,
    private readonly internalKey: string,
    private readonly cache = new PrincipalCache(),
    private readonly now: () => number = Date.now,
  ) {
    this.url = joinUrl(subgraphUrl, INTERNAL_PRINCIPAL_PATH);
  }

  async resolve(authorization: string | undefined, sessionToken?: string): Promise<Principal> {
    // No credential at all is anonymous without asking (exactly what TokenPrincipalResolver answers).
    if (authorization === undefined && sessionToken === undefined) return ANONYMOUS;
    // NOTE: keyed by a digest, so raw tokens are not kept as map keys.
    const key = createHash('sha256')
      .update(`${authorization ?? ''}\u0000${sessionToken ?? ''}`)
      .digest('base64url');
    const cached = this.cache.get(key, this.now());
    if (cached) return cached;
    return principalLookup(() => this.ask(key, authorization, sessionToken));
  }

  /** Identity's answer for a credential the cache does not hold; cached when it is a principal. */
  private async ask(key: string, authorization: string | undefined, sessionToken?: string): Promise<Principal> {
    const request: PrincipalRequestBody = {};
    if (authorization !== undefined) request.authorization = authorization;
    if (sessionToken !== undefined) request.session = sessionToken;
    const body = JSON.stringify(request);
    let response: Response;
    try {
      response = await fetch(this.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...onwardHeaders(),
          ...signInternalRequest('POST', INTERNAL_PRINCIPAL_PATH, body, this.internalKey, this.now()),
        },
        body,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      throw new Error(`principal service unreachable at ${this.url}`, { cause: error });
    }
    const payload = (await response.json().catch(() => undefined)) as
      | { principal?: Principal; error?: WireDomainError }
      | undefined;
    if (response.ok && payload?.principal) {
      this.cache.set(key, payload.principal, this.now(), null);
      return payload.principal;
    }
    const error = payload?.error;
    const domainError = fromWireDomainError(error, response.status);
    if (domainError) throw domainError;
    // A refused signature (wrong INTERNAL_KEY, clock skew) or an identity failure is our problem: a 500.
    throw new Error(
      `principal endpoint ${this.url} answered ${response.status}${error?.code ? ` (${error.code})` : ''}`,
    );
  }
}
