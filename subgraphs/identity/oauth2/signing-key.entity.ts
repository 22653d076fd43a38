import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export type SigningKeyStatus = 'active' | 'retired';

/**
 * An RSA 2048 key that signs id_tokens (RS256). The public JWK is published in the JWKS; the private
 * JWK is stored encrypted (AES-256-GCM, key derived from the server SECRET with HKDF), so a copy of
 * the database alone cannot sign tokens. Exactly one key is `active`; retired keys stay in the JWKS
 * so tokens they signed keep verifying.
 */
@Entity({ tableName: 'oauth2_signing_keys', schema: 'identity' })
export class SigningKey {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'text', unique: true }) kid!: string;
  @Property({ type: 'text' }) algorithm = 'RS256';
  @Property({ type: 'jsonb' }) publicJwk!: Record<string, unknown>;
  @Property({ type: 'text', hidden: true }) privateJwkEncrypted!: string;
  @Property({ type: 'text' }) status: SigningKeyStatus = 'active';
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) retiredAt: Date | null = null;
}
