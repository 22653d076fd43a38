import { Field, InputType } from 'type-graphql';

/** MemberCreateFromCustomer / CustomerPortalMemberCreate (the portal gives no external id). */
@InputType('MemberCreateInput')
export class MemberCreateInput {
  @Field() email!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) externalId?: string | null;
  @Field(() => String, { nullable: true, description: 'Default member.' }) role?: string | null;
}

/** MemberUpdate / CustomerPortalMemberUpdate: absent or null leaves a field as it is. */
@InputType('MemberUpdateInput')
export class MemberUpdateInput {
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) role?: string | null;
}
