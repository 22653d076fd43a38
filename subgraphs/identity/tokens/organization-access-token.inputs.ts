import { Field, ID, InputType } from 'type-graphql';

@InputType('CreateOrganizationAccessTokenInput')
export class CreateOrganizationAccessTokenInput {
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field() comment!: string;
  @Field(() => String, { nullable: true, description: 'ISO 8601 duration, e.g. P30D. Absent: never expires.' })
  expiresIn?: string | null;
  @Field(() => [String]) scopes!: string[];
}

@InputType('UpdateOrganizationAccessTokenInput')
export class UpdateOrganizationAccessTokenInput {
  @Field(() => String, { nullable: true }) comment?: string | null;
  @Field(() => [String], { nullable: true }) scopes?: string[] | null;
}
