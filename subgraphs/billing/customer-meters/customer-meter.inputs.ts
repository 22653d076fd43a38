import { Field, ID, InputType } from 'type-graphql';

@InputType('CustomerMeterFilter')
export class CustomerMeterFilterInput {
  @Field(() => [ID], { nullable: true }) organizationId?: string[] | null;
  @Field(() => [ID], { nullable: true }) customerId?: string[] | null;
  @Field(() => [String], { nullable: true }) externalCustomerId?: string[] | null;
  @Field(() => [ID], { nullable: true }) meterId?: string[] | null;
}

/** Which of the customer session's own meters a portal list shows. */
@InputType('CustomerPortalMeterFilterInput')
export class CustomerPortalMeterFilterInput {
  @Field(() => [ID], { nullable: true }) meterId?: string[] | null;
}
