import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import type { SubType } from './oauth2-client.entity.js';

/**
 * One issued access token (`polar_at_u_…` / `polar_at_o_…`) and its refresh token (`polar_rt_u_…` /
 * `polar_rt_o_…`), both stored only hashed. `familyId` is the authorization code the chain started
 * from: refreshing keeps it, so revoking a family revokes every token of one grant.
 */
@Entity({ tableName: 'oauth2_tokens', schema: 'identity' })
export class OAuth2Token {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) familyId!: string;
  @Index() @Property({ type: 'uuid', fieldName: 'oauth2_client_id' }) oauth2ClientId!: string;
  @Property({ type: 'text' }) subType!: SubType;
  /** The person who consented (also the subject for `sub_type=user`). */
  @Index() @Property({ type: 'uuid' }) userId!: string;
  /** The organization the token acts for (`sub_type=organization` only). */
  @Property({ type: 'uuid', nullable: true }) organizationId: string | null = null;
  @Property({ type: 'text', unique: true, hidden: true }) accessTokenHash!: string;
  @Property({ type: 'text', unique: true, nullable: true, hidden: true }) refreshTokenHash: string | null = null;
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'timestamptz' }) accessTokenExpiresAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) refreshTokenExpiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) accessTokenRevokedAt: Date | null = null;
  /** Set when the refresh token was used (rotated) or revoked; presenting it again revokes the family. */
  @Property({ type: 'timestamptz', nullable: true }) refreshTokenRevokedAt: Date | null = null;
  /** When the person signed in for the grant this chain comes from. */
  @Property({ type: 'timestamptz' }) authTime!: Date;
  @Property({ type: 'timestamptz' }) createdAt!: Date;

  get sub(): string {
    return this.subType === 'organization' && this.organizationId ? this.organizationId : this.userId;
  }

  isAccessLive(now: Date): boolean {
    return this.accessTokenRevokedAt === null && this.accessTokenExpiresAt > now;
  }

  isRefreshLive(now: Date): boolean {
    return (
      this.refreshTokenHash !== null &&
      this.refreshTokenRevokedAt === null &&
      (this.refreshTokenExpiresAt === null || this.refreshTokenExpiresAt > now)
    );
  }
}
