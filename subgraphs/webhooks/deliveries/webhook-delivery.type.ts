import { Field, GraphQLISODateTime, ID, Int, ObjectType } from 'type-graphql';
import { ListResource } from '../../../kit/graphql/pagination.js';

const SIMPLE = { simpleResolvers: true } as const;

/**
 * Polar's WebhookEvent: one event as queued for one endpoint. Its `id` is the `webhook-id` header of
 * every attempt and redelivery; `payload` is the exact body sent.
 */
@ObjectType('WebhookEvent', SIMPLE)
export class WebhookEventType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field(() => Int, { nullable: true }) lastHttpCode!: number | null;
  @Field(() => Boolean, { nullable: true, description: 'null while attempts remain' }) succeeded!: boolean | null;
  @Field() skipped!: boolean;
  @Field(() => String, { nullable: true }) payload!: string | null;
  @Field() type!: string;
  @Field({ description: 'The API version the payload was rendered for.' }) apiVersion!: string;
  @Field() isArchived!: boolean;
}

/** Polar's WebhookDelivery: one attempt, plus how long it took and why it failed. */
@ObjectType('WebhookDelivery', SIMPLE)
export class WebhookDeliveryType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() succeeded!: boolean;
  @Field(() => Int, { nullable: true }) httpCode!: number | null;
  @Field(() => String, { nullable: true, description: 'The first 2 KB of the response body.' }) response!:
    | string
    | null;
  @Field(() => Int) durationMs!: number;
  @Field(() => String, { nullable: true, description: 'Timeout, refused address, network or TLS error.' })
  error!: string | null;
  @Field(() => ID) endpointId!: string;
  @Field(() => WebhookEventType) webhookEvent!: WebhookEventType;
}

@ObjectType('WebhookDeliveryList', SIMPLE)
export class WebhookDeliveryList extends ListResource(WebhookDeliveryType) {}

@ObjectType('WebhookRedelivery', { ...SIMPLE, description: 'How many events were queued again.' })
export class WebhookRedeliveryType {
  @Field(() => Int) count!: number;
}
