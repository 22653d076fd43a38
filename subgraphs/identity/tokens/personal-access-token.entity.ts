import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A credential acting for one user (`polar_pat_`), created from the CLI. Only its hash is stored. */
@Entity({ tableName: 'personal_access_tokens', schema: 'identity' })
export class PersonalAccessToken {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) userId!: string;
  @Property({ type: 'text', unique: true, hidden: true }) tokenHash!: string;
  @Property({ type: 'text' }) comment = '';
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'timestamptz', nullable: true }) expiresAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) lastUsedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;

  isLive(now: Date): boolean {
    return this.deletedAt === null && (this.expiresAt === null || this.expiresAt > now);
  }
}
