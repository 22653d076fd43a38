import type { PrincipalCache } from '../../../kit/principal-cache.js';
import type { UserSessionService } from '../sessions/user-session.service.js';
import { OAuth2AuthorizationService } from './oauth2-authorization.service.js';
import { OAuth2ClientService } from './oauth2-client.service.js';
import { OAuth2TokenService } from './oauth2-token.service.js';
import { SigningKeys } from './signing-keys.js';

/**
 * The OAuth 2.0 / OIDC provider's use cases, built once per environment (IdentityServices.oauth2).
 * Each method takes `{em, clock}` like every identity service; `InProcessOAuth2Provider` wraps them
 * behind the contract the REST adapter speaks.
 */
export class OAuth2Service {
  readonly clients: OAuth2ClientService;
  readonly keys: SigningKeys;
  readonly authorization: OAuth2AuthorizationService;
  readonly tokens: OAuth2TokenService;

  constructor(secret: string, cache: PrincipalCache, sessions: UserSessionService) {
    this.clients = new OAuth2ClientService(secret);
    this.keys = new SigningKeys(secret);
    this.authorization = new OAuth2AuthorizationService(secret, this.clients, sessions);
    this.tokens = new OAuth2TokenService(secret, cache, this.clients, this.keys);
  }
}
