import type { EntityManager } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import { generateToken, hashToken, TOKEN_PREFIXES } from '../../../kit/tokens.js';
import { memberOrganizationIds } from '../memberships/membership.repository.js';
import { OrganizationRepository } from '../organizations/organization.repository.js';
import type { UserSessionService } from '../sessions/user-session.service.js';
import { UserSessionRepository } from '../tokens/user-session.repository.js';
import { UserRepository } from '../users/user.repository.js';
import { AUTHORIZATION_CODE_TTL_SECONDS, describeScope, PROMPT_VALUES, SUB_TYPES } from './oauth2.constants.js';
import type { AuthorizationParams, AuthorizeOutcome, ConsentDecision, SignedInPerson } from './oauth2.contract.js';
import { OAuth2AuthorizationCode } from './oauth2-authorization-code.entity.js';
import type { OAuth2Client, SubType } from './oauth2-client.entity.js';
import type { OAuth2ClientService } from './oauth2-client.service.js';
import { redirectUriMatches } from './oauth2-client.validation.js';
import { OAuth2GrantRepository } from './oauth2-grant.repository.js';

type Ctx = { em: EntityManager; clock: Clock };

/** An authorization request that passed validation (RFC 6749 §4.1.1, OIDC Core §3.1.2.1, RFC 7636). */
interface ValidRequest {
  client: OAuth2Client;
  redirectUri: string;
  state: string | undefined;
  nonce: string | undefined;
  scopes: string[];
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
  subType: SubType;
  prompt: Set<string>;
  maxAge: number | undefined;
}

const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
const PROMPTS = new Set<string>(PROMPT_VALUES);
/** Parameters the consent form carries back (everything that shapes the code). */
const CARRIED = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'nonce',
  'code_challenge',
  'code_challenge_method',
  'sub_type',
] as const;

/**
 * The authorization endpoint's decisions: validate the request, send the person to sign in, show
 * consent or skip it (remembered grant), and issue the single-use code.
 */
export class OAuth2AuthorizationService {
  constructor(
    private readonly secret: string,
    private readonly clients: OAuth2ClientService,
    private readonly sessions: UserSessionService,
  ) {}

  async authorize(
    ctx: Ctx,
    issuer: string,
    params: AuthorizationParams,
    repeated: string[],
    person: SignedInPerson | null,
  ): Promise<AuthorizeOutcome> {
    const checked = await this.validate(ctx, issuer, params, repeated);
    if ('kind' in checked) return checked;
    const request = checked;
    const fail = (error: string, description: string) => errorRedirect(issuer, request, error, description);

    const authTime = person && (await this.authTimeOf(ctx, person));
    if (!person || !authTime)
      return request.prompt.has('none')
        ? fail('login_required', 'The person is not signed in.')
        : { kind: 'login', signedOut: false, dropParams: [] };

    const tooOld =
      request.maxAge !== undefined && ctx.clock.now().getTime() - authTime.getTime() > request.maxAge * 1000;
    if (request.prompt.has('login') || tooOld) {
      if (request.prompt.has('none')) return fail('login_required', 'The person must sign in again (max_age).');
      await this.sessions.revoke(ctx, person.sessionId);
      return { kind: 'login', signedOut: true, dropParams: ['prompt', 'max_age'] };
    }

    const grants = await new OAuth2GrantRepository(ctx.em).findOf(request.client.id, person.userId, request.subType);
    const covering = grants.filter(g => request.scopes.every(s => g.scopes.includes(s)));
    let memberOf: string[] = [];
    if (request.subType === 'organization') {
      memberOf = await memberOrganizationIds(ctx.em, person.userId);
      const usable = covering.filter(g => memberOf.includes(g.sub));
      if (request.prompt.has('none')) {
        if (usable.length !== 1)
          return fail('consent_required', 'The person has not granted this client access to exactly one organization.');
        return this.issueCode(ctx, issuer, request, person.userId, usable[0].sub, authTime);
      }
    } else {
      const granted = covering.some(g => g.sub === person.userId);
      if (request.prompt.has('none')) {
        if (!granted) return fail('consent_required', 'The person has not granted these scopes to this client.');
        return this.issueCode(ctx, issuer, request, person.userId, person.userId, authTime);
      }
      if (granted && !request.prompt.has('consent') && !request.prompt.has('select_account')) {
        return this.issueCode(ctx, issuer, request, person.userId, person.userId, authTime);
      }
    }
    return this.consentView(ctx, request, person.userId, memberOf);
  }

  async consent(
    ctx: Ctx,
    issuer: string,
    params: AuthorizationParams,
    person: SignedInPerson,
    decision: ConsentDecision,
  ): Promise<AuthorizeOutcome> {
    const carried: AuthorizationParams = {};
    for (const key of CARRIED) if (params[key] !== undefined) carried[key] = params[key];
    const checked = await this.validate(ctx, issuer, carried, []);
    if ('kind' in checked) return checked;
    const request = checked;
    if (!decision.allow) return errorRedirect(issuer, request, 'access_denied', 'The person denied the request.');
    const authTime = await this.authTimeOf(ctx, person);
    if (!authTime) return { kind: 'login', signedOut: false, dropParams: [] };

    let sub = person.userId;
    if (request.subType === 'organization') {
      const memberOf = await memberOrganizationIds(ctx.em, person.userId);
      if (!decision.organizationId || !memberOf.includes(decision.organizationId)) {
        return { kind: 'error_page', error: 'invalid_request', description: 'Choose one of your organizations.' };
      }
      sub = decision.organizationId;
    }
    await this.remember(ctx, request, person.userId, sub);
    return this.issueCode(ctx, issuer, request, person.userId, sub, authTime);
  }

  /**
   * RFC 6749 §4.1.2.1: errors about the client or the redirect URI are shown, never redirected; every
   * other error goes back to the (now trusted) redirect URI with `state` and `iss`.
   */
  private async validate(
    ctx: Ctx,
    issuer: string,
    params: AuthorizationParams,
    repeated: string[],
  ): Promise<ValidRequest | AuthorizeOutcome> {
    const page = (error: string, description: string): AuthorizeOutcome => ({ kind: 'error_page', error, description });
    if (repeated.includes('client_id') || repeated.includes('redirect_uri'))
      return page('invalid_request', 'client_id and redirect_uri must be given once.');
    if (!params.client_id) return page('invalid_request', 'The request has no client_id.');
    const client = await this.clients.findLive(ctx.em, params.client_id);
    if (!client) return page('invalid_client', 'No client is registered with this client_id.');
    const redirectUri = params.redirect_uri;
    if (!redirectUri) return page('invalid_request', 'The request has no redirect_uri.');
    if (!redirectUriMatches(client.redirectUris, redirectUri, client.applicationType))
      return page('invalid_request', 'The redirect_uri is not one the client registered.');

    const base = { client, redirectUri, state: params.state } as ValidRequest;
    const fail = (error: string, description: string) => errorRedirect(issuer, base, error, description);
    if (repeated.length) return fail('invalid_request', `Parameters must not be repeated: ${repeated.join(', ')}.`);
    if (params.request !== undefined) return fail('request_not_supported', 'Request objects are not supported.');
    if (params.request_uri !== undefined) return fail('request_uri_not_supported', 'request_uri is not supported.');
    if (!params.response_type) return fail('invalid_request', 'The request has no response_type.');
    if (params.response_type !== 'code' || !client.responseTypes.includes('code'))
      return fail('unsupported_response_type', 'Only response_type=code is supported.');
    if (params.response_mode !== undefined && params.response_mode !== 'query')
      return fail('invalid_request', 'Only response_mode=query is supported.');

    const scopes =
      params.scope === undefined ? [...client.scopes] : [...new Set(params.scope.split(' ').filter(Boolean))];
    if (scopes.length === 0) return fail('invalid_scope', 'No scope was requested.');
    const notAllowed = scopes.filter(s => !client.scopes.includes(s));
    if (notAllowed.length) return fail('invalid_scope', `The client may not request: ${notAllowed.join(', ')}.`);

    const challenge = params.code_challenge;
    const method = params.code_challenge_method;
    if (method !== undefined && method !== 'S256' && method !== 'plain')
      return fail('invalid_request', 'code_challenge_method must be S256 or plain.');
    if (method !== undefined && challenge === undefined)
      return fail('invalid_request', 'code_challenge_method was given without code_challenge.');
    if (challenge !== undefined && !PKCE_VALUE.test(challenge))
      return fail('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9._~-].');
    if (client.isPublic && challenge === undefined)
      return fail('invalid_request', 'PKCE is required for public clients: send code_challenge (S256).');

    const subType = (params.sub_type ?? client.defaultSubType) as SubType;
    if (!(SUB_TYPES as readonly string[]).includes(subType))
      return fail('invalid_request', 'sub_type must be user or organization.');

    const prompt = new Set((params.prompt ?? '').split(' ').filter(Boolean));
    if ([...prompt].some(p => !PROMPTS.has(p)))
      return fail('invalid_request', 'prompt must be none, login, consent or select_account.');
    if (prompt.has('none') && prompt.size > 1)
      return fail('invalid_request', 'prompt=none cannot be combined with other values.');

    let maxAge: number | undefined;
    if (params.max_age !== undefined) {
      if (!/^\d{1,10}$/.test(params.max_age)) return fail('invalid_request', 'max_age must be a non-negative integer.');
      maxAge = Number(params.max_age);
    }
    return {
      client,
      redirectUri,
      state: params.state,
      nonce: params.nonce,
      scopes,
      codeChallenge: challenge,
      codeChallengeMethod: challenge === undefined ? undefined : (method ?? 'plain'),
      subType,
      prompt,
      maxAge,
    };
  }

  /** `memberOf`: the person's organizations, already read for `sub_type=organization` (empty otherwise). */
  private async consentView(
    ctx: Ctx,
    request: ValidRequest,
    userId: string,
    memberOf: string[],
  ): Promise<AuthorizeOutcome> {
    const user = await new UserRepository(ctx.em).findByIdOrFail(userId);
    let organizations: { id: string; name: string; slug: string }[] = [];
    if (request.subType === 'organization') {
      const rows = memberOf.length ? await new OrganizationRepository(ctx.em).namesOf(memberOf) : [];
      organizations = rows.map(o => ({ id: o.id, name: o.name, slug: o.slug }));
    }
    const carried: Record<string, string> = {
      response_type: 'code',
      client_id: request.client.clientId,
      redirect_uri: request.redirectUri,
      scope: request.scopes.join(' '),
      sub_type: request.subType,
    };
    if (request.state !== undefined) carried.state = request.state;
    if (request.nonce !== undefined) carried.nonce = request.nonce;
    if (request.codeChallenge !== undefined) {
      carried.code_challenge = request.codeChallenge;
      carried.code_challenge_method = request.codeChallengeMethod!;
    }
    const c = request.client;
    return {
      kind: 'consent',
      view: {
        client: {
          clientId: c.clientId,
          clientName: c.clientName,
          clientUri: c.clientUri,
          logoUri: c.logoUri,
          tosUri: c.tosUri,
          policyUri: c.policyUri,
        },
        user: { id: user.id, email: user.email },
        subType: request.subType,
        scopes: request.scopes.map(scope => ({ scope, description: describeScope(scope) })),
        organizations,
        request: carried,
      },
    };
  }

  private async remember(ctx: Ctx, request: ValidRequest, userId: string, sub: string): Promise<void> {
    // One row per (client, person, subject); consent widens it, never narrows it.
    await new OAuth2GrantRepository(ctx.em).remember(
      { oauth2ClientId: request.client.id, userId, subType: request.subType, sub, scopes: request.scopes },
      ctx.clock.now(),
    );
  }

  private async issueCode(
    ctx: Ctx,
    issuer: string,
    request: ValidRequest,
    userId: string,
    sub: string,
    authTime: Date,
  ): Promise<AuthorizeOutcome> {
    const raw = generateToken(TOKEN_PREFIXES.authorizationCode);
    const now = ctx.clock.now();
    ctx.em.create(OAuth2AuthorizationCode, {
      codeHash: hashToken(raw, this.secret),
      oauth2ClientId: request.client.id,
      userId,
      subType: request.subType,
      sub,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge ?? null,
      codeChallengeMethod: request.codeChallengeMethod ?? null,
      nonce: request.nonce ?? null,
      authTime,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_TTL_SECONDS * 1000),
      createdAt: now,
    } as OAuth2AuthorizationCode);
    await ctx.em.flush();
    return {
      kind: 'redirect',
      location: redirectWith(request.redirectUri, { code: raw, state: request.state, iss: issuer }),
    };
  }

  /** When the person signed in: the web session's creation (OIDC `auth_time`); null when it has ended. */
  private async authTimeOf(ctx: Ctx, person: SignedInPerson): Promise<Date | null> {
    const session = await new UserSessionRepository(ctx.em).findOfUser(person.sessionId, person.userId);
    return session?.isLive(ctx.clock.now()) ? session.createdAt : null;
  }
}

function errorRedirect(
  issuer: string,
  request: Pick<ValidRequest, 'redirectUri' | 'state'>,
  error: string,
  description: string,
): AuthorizeOutcome {
  return {
    kind: 'redirect',
    location: redirectWith(request.redirectUri, {
      error,
      error_description: description,
      state: request.state,
      iss: issuer,
    }),
  };
}

/** The redirect URI with parameters added to its query (RFC 6749 §4.1.2: any query it has is kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(key, value);
  return url.toString();
}
