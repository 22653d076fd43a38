import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A server-side credential acting for one organization (`polar_oat_`). Only its hash is stored. */
@Entity({ tableName: 'organization_access_tokens', schema: 'identity' })
export class OrganizationAccessToken {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text', unique: true, hidden: true }) tokenHash!: string;
  @Property({ type: 'text' }) comment = '';
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;

  isLive(now: Date): boolean {
    return this.deletedAt === null && (this.expiresAt === null || this.expiresAt > now);
  }
}
