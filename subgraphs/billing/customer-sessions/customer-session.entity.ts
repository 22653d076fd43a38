import { randomUUID } from 'node:crypto';
import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

/** A customer portal session (`polar_cst_`, one hour). Only the token's hash is stored. */
@Entity({ tableName: 'customer_sessions', schema: 'billing' })
export class CustomerSession {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'text', unique: true, hidden: true }) tokenHash!: string;
  @Property({ type: 'text', nullable: true }) returnUrl: string | null = null;
  @Property({ type: 'timestamptz' }) expiresAt!: Date;
  @Property({ type: 'timestamptz' }) createdAt!: Date;

  isLive(now: Date): boolean {
    return this.expiresAt > now;
  }
}
