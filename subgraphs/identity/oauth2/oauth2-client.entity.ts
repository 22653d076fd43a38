import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type TokenEndpointAuthMethod = 'client_secret_basic' | 'client_secret_post' | 'none';
export type SubType = 'user' | 'organization';
/** OIDC Registration §2 / RFC 8252 §8.4: `native` apps may receive a loopback redirect on any port; `web` clients may not. */
export type ApplicationType = 'web' | 'native';

/**
 * A registered OAuth 2.0 client (RFC 7591). The public `client_id` is `polar_ci_…`; the client secret
 * (`polar_cs_…`) and the registration access token (`polar_crt_…`, RFC 7592) are stored only as
 * HMAC-SHA256 hashes keyed with the server secret. Deleting a client is a soft delete.
 */
@Entity({ tableName: 'oauth2_clients', schema: 'identity' })
export class OAuth2Client {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text', unique: true }) clientId!: string;
  /** Null for public clients (`token_endpoint_auth_method: none`). */
  @Property({ type: 'text', nullable: true, hidden: true }) clientSecretHash: string | null = null;
  @Property({ type: 'text', unique: true, hidden: true }) registrationTokenHash!: string;
  /** The signed-in person who registered it, when it was not registered anonymously. */
  @Index() @Property({ type: 'uuid', nullable: true }) ownerUserId: string | null = null;
  @Property({ type: 'text' }) clientName!: string;
  @Property({ type: 'text[]' }) redirectUris: string[] = [];
  @Property({ type: 'text' }) tokenEndpointAuthMethod: TokenEndpointAuthMethod = 'client_secret_post';
  @Property({ type: 'text[]' }) grantTypes: string[] = ['authorization_code', 'refresh_token'];
  @Property({ type: 'text[]' }) responseTypes: string[] = ['code'];
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'text', nullable: true }) clientUri: string | null = null;
  @Property({ type: 'text', nullable: true }) logoUri: string | null = null;
  @Property({ type: 'text', nullable: true }) tosUri: string | null = null;
  @Property({ type: 'text', nullable: true }) policyUri: string | null = null;
  @Property({ type: 'text' }) defaultSubType: SubType = 'user';
  @Property({ type: 'text' }) applicationType: ApplicationType = 'web';
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;

  get isPublic(): boolean {
    return this.tokenEndpointAuthMethod === 'none';
  }
}
