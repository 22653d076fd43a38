import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { SubType } from './oauth2-client.entity.js';

/**
 * An authorization code (`polar_ac_…`, stored hashed): five minutes, single use, bound to the client,
 * the redirect URI and the PKCE challenge. Its id is the *family* of every token issued from it, so a
 * replayed code (or a reused refresh token) revokes them all. Consumed rows are kept until they
 * expire so a replay can still be recognised.
 */
@Entity({ tableName: 'oauth2_authorization_codes', schema: 'identity' })
export class OAuth2AuthorizationCode {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text', unique: true, hidden: true }) codeHash!: string;
  @Index() @Property({ type: 'uuid', fieldName: 'oauth2_client_id' }) oauth2ClientId!: string;
  /** The person who consented. */
  @Property({ type: 'uuid' }) userId!: string;
  @Property({ type: 'text' }) subType!: SubType;
  /** The user id (sub_type user) or the chosen organization's id (sub_type organization). */
  @Property({ type: 'uuid' }) sub!: string;
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'text' }) redirectUri!: string;
  @Property({ type: 'text', nullable: true }) codeChallenge: string | null = null;
  @Property({ type: 'text', nullable: true }) codeChallengeMethod: string | null = null;
  @Property({ type: 'text', nullable: true }) nonce: string | null = null;
  /** When the person signed in (id_token `auth_time`). */
  @Property({ type: 'timestamptz' }) authTime!: Date;
  @Property({ type: 'timestamptz' }) expiresAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) consumedAt: Date | null = null;
  /** Set when someone presented the code a second time (every token of the family was revoked). */
  @Property({ type: 'timestamptz', nullable: true }) replayedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
