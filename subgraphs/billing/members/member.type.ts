import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { Member, MemberRole } from './member.entity.js';

/** A member as Polar serves it (Member; the portal's CustomerPortalMember is its subset). */
@ObjectType('Member', { simpleResolvers: true })
export class MemberType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => ID) customerId!: string;
  @Field() email!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) externalId!: string | null;
  @Field(() => String, { description: 'owner, billing_manager or member.' }) role!: MemberRole;

  static fromEntity(m: Member): MemberType {
    return {
      id: m.id,
      createdAt: toDate(m.createdAt) as Date,
      modifiedAt: toDate(m.modifiedAt),
      customerId: m.customerId,
      email: m.email,
      name: m.name,
      externalId: m.externalId,
      role: m.role,
    };
  }

  static fromRow(row: ReadRow): MemberType {
    return MemberType.fromEntity(row.r as Member);
  }
}

@ObjectType('MemberList', { simpleResolvers: true })
export class MemberList extends ListResource(MemberType) {}

/** Who a portal session is (Polar's PortalAuthenticatedUser): here always the customer itself. */
@ObjectType('PortalAuthenticatedUser', { simpleResolvers: true })
export class PortalAuthenticatedUserType {
  @Field({ description: "'customer' or 'member'." }) type!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field() email!: string;
  @Field(() => ID) customerId!: string;
  @Field(() => ID, { nullable: true }) memberId!: string | null;
  @Field(() => String, { nullable: true }) role!: string | null;
}
