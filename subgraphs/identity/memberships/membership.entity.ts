import { randomUUID } from 'node:crypto';
import { Entity, Enum, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

export enum MemberRole {
  OWNER = 'owner',
  ADMIN = 'admin',
  MEMBER = 'member',
}

/** Roles that may change the organization itself (settings, access tokens). */
export const MANAGING_ROLES: ReadonlySet<MemberRole> = new Set([MemberRole.OWNER, MemberRole.ADMIN]);

/** A user's place in an organization. The creator of an organization is its owner. */
@Entity({ tableName: 'memberships', schema: 'identity' })
@Unique({ properties: ['userId', 'organizationId'] })
export class Membership {
  @PrimaryKey({ type: 'uuid' }) id: string = randomUUID();
  @Index() @Property({ type: 'uuid' }) userId!: string;
  @Index() @Property({ type: 'uuid' }) organizationId!: string;
  @Enum({ items: () => MemberRole, nativeEnumName: undefined }) role!: MemberRole;
  @Property({ type: 'timestamptz' }) createdAt!: Date;
}
