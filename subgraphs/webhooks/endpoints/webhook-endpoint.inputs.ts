import { Field, ID, InputType } from 'type-graphql';

@InputType('CreateWebhookEndpointInput')
export class CreateWebhookEndpointInput {
  @Field() url!: string;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { defaultValue: 'raw' }) format!: string;
  @Field(() => String, { nullable: true, description: 'The API version of its payloads; none: the unversioned ones.' })
  apiVersion?: string | null;
  @Field(() => [String]) events!: string[];
  @Field(() => ID, { nullable: true }) organizationId?: string | null;
  @Field(() => String, { nullable: true, description: 'Deprecated in Polar: a chosen secret (≥ 32 characters).' })
  secret?: string | null;
}

@InputType('UpdateWebhookEndpointInput')
export class UpdateWebhookEndpointInput {
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) name?: string | null;
  @Field(() => String, { nullable: true }) format?: string | null;
  @Field(() => [String], { nullable: true }) events?: string[] | null;
  @Field(() => String, { nullable: true }) apiVersion?: string | null;
  @Field(() => Boolean, { nullable: true }) enabled?: boolean | null;
  @Field(() => String, { nullable: true }) secret?: string | null;
}
