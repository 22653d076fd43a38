import { Field, ID, InputType } from 'type-graphql';

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

/** Which members a list shows: the customer's (by id or external id), optionally of one role. */
@InputType('MemberFilterInput')
export class MemberFilterInput {
  @Field(() => ID, { nullable: true }) customerId?: string | null;
  @Field(() => String, { nullable: true }) customerExternalId?: string | null;
  @Field(() => String, { nullable: true, description: 'owner, billing_manager or member.' }) role?: string | null;
}
