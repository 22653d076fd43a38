import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A signed-in browser (`polar_us_`, kept in a cookie by the login pages). Only its hash is stored. */
@Entity({ tableName: 'user_sessions', schema: 'identity' })
export class UserSession {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) userId!: string;
  @Property({ type: 'text', unique: true, hidden: true }) tokenHash!: string;
  @Property({ type: 'text[]' }) scopes: string[] = [];
  @Property({ type: 'timestamptz' }) expiresAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
  @Property({ type: 'timestamptz' }) createdAt!: Date;

  isLive(now: Date): boolean {
    return this.deletedAt === null && this.expiresAt > now;
  }
}
