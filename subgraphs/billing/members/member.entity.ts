import { randomUUID } from 'node:crypto';
import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';

export const MEMBER_ROLES = ['owner', 'billing_manager', 'member'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/**
 * A person who acts for a customer (Polar's Member; docs/members.md). A customer has at most one live
 * owner; e-mail and external id are unique per customer among live members (partial unique indexes in
 * the migration). Deletion is soft.
 */
@Entity({ tableName: 'members', schema: 'billing' })
export class Member {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Property({ type: 'uuid' }) organizationId!: string;
  @Property({ type: 'uuid' }) customerId!: string;
  @Property({ type: 'text' }) email!: string;
  @Property({ type: 'text', nullable: true }) name: string | null = null;
  @Property({ type: 'text', nullable: true }) externalId: string | null = null;
  @Property({ type: 'text' }) role: MemberRole = 'member';
  @Property({ type: 'timestamptz' }) createdAt!: Date;
  @Property({ type: 'timestamptz', nullable: true }) modifiedAt: Date | null = null;
  @Property({ type: 'timestamptz', nullable: true }) deletedAt: Date | null = null;
}
