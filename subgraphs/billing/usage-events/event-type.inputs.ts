import { Field, ID, InputType } from 'type-graphql';

@InputType('EventTypeFilter')
export class EventTypeFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => String, { nullable: true, description: 'Part of the name or label, any case.' }) query?: string | null;
  @Field(() => Boolean, { nullable: true }) rootEvents?: boolean | null;
  @Field(() => ID, { nullable: true }) parentId?: string | null;
  @Field(() => String, { nullable: true, description: 'user | system' }) source?: string | null;
}

/** Polar's EventTypeUpdate. */
@InputType('EventTypeUpdateInput')
export class EventTypeUpdateInput {
  @Field() label!: string;
  @Field(() => String, { nullable: true }) labelPropertySelector?: string | null;
}
