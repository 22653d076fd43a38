import { Field, GraphQLISODateTime, ID, InputType, Int, ObjectType } from 'type-graphql';
import { MAX_ADVANCE_SECONDS } from './sandbox-clock.limits.js';

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
  @Field(() => GraphQLISODateTime, {
    nullable: true,
    description: `Not before the clock's time, at most ${MAX_ADVANCE_SECONDS} seconds after it.`,
  })
  to?: Date | null;
  @Field(() => Int, { nullable: true, description: `0 to ${MAX_ADVANCE_SECONDS} (two years of 366 days).` })
  seconds?: number | null;
}
