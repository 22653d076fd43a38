import type { MikroORM } from '@mikro-orm/postgresql';
import type { Clock } from '../../../kit/clock.js';
import type { Logger } from '../../../kit/logger.js';
import type { Principal } from '../../../kit/principal.js';
import type {
  AuthorizationParams,
  AuthorizeOutcome,
  ClientManagementCaller,
  ConsentDecision,
  OAuth2Provider,
  OAuthFormRequest,
  OAuthHttpResult,
  SignedInPerson,
} from './oauth2.contract.js';
import { OAuthError } from './oauth2.errors.js';
import type { OAuth2Service } from './oauth2.service.js';
import { oauthErrorResult } from './oauth2-token.service.js';

const SERVER_ERROR = new OAuthError('server_error', 'The server could not complete the request.', 500);

/**
 * The OAuth contract served in-process (embedded topology): every call runs on its own
 * EntityManager fork. OAuth errors become OAuth-shaped answers; anything unexpected is logged and
 * answered `server_error` without details.
 */
export class InProcessOAuth2Provider implements OAuth2Provider {
  constructor(
    private readonly orm: MikroORM,
    private readonly service: OAuth2Service,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  private ctx() {
    return { em: this.orm.em.fork(), clock: this.clock };
  }

  private async guard(what: string, run: () => Promise<OAuthHttpResult>): Promise<OAuthHttpResult> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof OAuthError)
        return oauthErrorResult(
          error,
          error.status === 401 ? { 'WWW-Authenticate': `Bearer realm="polar", error="${error.error}"` } : {},
        );
      this.logger?.error({ err: error }, `oauth2 ${what} failed`);
      return oauthErrorResult(SERVER_ERROR);
    }
  }

  authorize(
    issuer: string,
    params: AuthorizationParams,
    repeated: string[],
    person: SignedInPerson | null,
  ): Promise<AuthorizeOutcome> {
    return this.service.authorization.authorize(this.ctx(), issuer, params, repeated, person);
  }

  consent(
    issuer: string,
    params: AuthorizationParams,
    person: SignedInPerson,
    decision: ConsentDecision,
  ): Promise<AuthorizeOutcome> {
    return this.service.authorization.consent(this.ctx(), issuer, params, person, decision);
  }

  token(issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    return this.guard('token', () => this.service.tokens.token(this.ctx(), issuer, request));
  }

  revoke(_issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    return this.guard('revoke', () => this.service.tokens.revoke(this.ctx(), request));
  }

  introspect(issuer: string, request: OAuthFormRequest): Promise<OAuthHttpResult> {
    return this.guard('introspect', () => this.service.tokens.introspect(this.ctx(), issuer, request));
  }

  userinfo(_issuer: string, principal: Principal): Promise<OAuthHttpResult> {
    return this.guard('userinfo', () => this.service.tokens.userinfo(this.ctx(), principal));
  }

  jwks(): Promise<OAuthHttpResult> {
    return this.guard('jwks', async () => ({
      status: 200,
      headers: { 'Cache-Control': 'public, max-age=300' },
      body: await this.service.keys.jwks(this.ctx()),
    }));
  }

  registerClient(issuer: string, body: unknown, registrant: string | null): Promise<OAuthHttpResult> {
    return this.guard('register', async () => {
      const { client, clientSecret, registrationToken } = await this.service.clients.register(
        this.ctx(),
        body,
        registrant,
      );
      return {
        status: 201,
        headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
        body: this.service.clients.toResponse(issuer, client, { clientSecret, registrationToken }),
      };
    });
  }

  readClient(issuer: string, clientId: string, caller: ClientManagementCaller): Promise<OAuthHttpResult> {
    return this.guard('read client', async () => {
      const client = await this.service.clients.findManageable(this.ctx(), clientId, caller);
      return {
        status: 200,
        headers: { 'Cache-Control': 'no-store' },
        body: this.service.clients.toResponse(issuer, client),
      };
    });
  }

  updateClient(
    issuer: string,
    clientId: string,
    body: unknown,
    caller: ClientManagementCaller,
  ): Promise<OAuthHttpResult> {
    return this.guard('update client', async () => {
      const ctx = this.ctx();
      const found = await this.service.clients.findManageable(ctx, clientId, caller);
      const { client, clientSecret } = await this.service.clients.update(ctx, found, body);
      return {
        status: 200,
        headers: { 'Cache-Control': 'no-store' },
        body: this.service.clients.toResponse(issuer, client, { clientSecret }),
      };
    });
  }

  deleteClient(_issuer: string, clientId: string, caller: ClientManagementCaller): Promise<OAuthHttpResult> {
    return this.guard('delete client', async () => {
      const ctx = this.ctx();
      const client = await this.service.clients.findManageable(ctx, clientId, caller);
      await this.service.clients.softDelete(ctx, client);
      await this.service.tokens.revokeClientTokens(ctx, client);
      return { status: 204 };
    });
  }

  /** Makes a new active signing key; the old one stays published (operators, tests). */
  rotateSigningKey(): Promise<string> {
    return this.service.keys.rotate(this.ctx());
  }
}
