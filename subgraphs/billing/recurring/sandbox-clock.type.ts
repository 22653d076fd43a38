import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';

/** An organization's sandbox clock: what time its billing lives in. */
@ObjectType('SandboxClock', { simpleResolvers: true })
export class SandboxClockType {
  @Field(() => ID) organizationId!: string;
  @Field(() => GraphQLISODateTime) now!: Date;
}

/** Exactly one of `to` and `seconds` (the REST adapter checks it; the service refuses otherwise). */
@InputType('AdvanceSandboxClockInput')
export class AdvanceSandboxClockInput {
  /** Required for a user's token, refused if it names another organization than an organization token's. */
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) to?: Date | null;
  @Field(() => Int, { nullable: true }) seconds?: number | null;
}
