import { Field, GraphQLISODateTime, ID, ObjectType } from 'type-graphql';
import { DEFAULT_API_VERSION } from '../../../kit/api-versions.js';
import { toDate } from '../../../kit/database/read/values.js';
import { ListResource } from '../../../kit/graphql/pagination.js';
import type { WebhookEndpoint } from './webhook-endpoint.entity.js';

const SIMPLE = { simpleResolvers: true } as const;

/** Polar's WebhookEndpoint (docs/polar/resources.md#webhook-endpoints). */
@ObjectType('WebhookEndpoint', SIMPLE)
export class WebhookEndpointType {
  @Field(() => ID) id!: string;
  @Field(() => GraphQLISODateTime) createdAt!: Date;
  @Field(() => GraphQLISODateTime, { nullable: true }) modifiedAt!: Date | null;
  @Field() url!: string;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, {
    description:
      'The API version of its event payloads. One created without a version answers the default version and receives the unversioned envelope and event types (docs/webhooks.md#api-versions).',
  })
  apiVersion!: string;
  @Field(() => String, { description: 'raw (discord and slack are refused by this server)' }) format!: string;
  @Field({ description: 'The signing secret (see the Webhooks section of docs/architecture.md for the key).' })
  secret!: string;
  @Field(() => ID) organizationId!: string;
  @Field(() => [String]) events!: string[];
  @Field() enabled!: boolean;
  @Field({ description: 'Always true: deliveries carry a Standard Webhooks signature (and the UTF-8-keyed one).' })
  usesStandardWebhookSignature!: boolean;

  /** THE public shape of an endpoint, from a managed entity or a row of the read path (ISO timestamps). */
  static fromEntity(e: WebhookEndpoint): WebhookEndpointType {
    return {
      id: e.id,
      createdAt: toDate(e.createdAt),
      modifiedAt: toDate(e.modifiedAt),
      url: e.url,
      name: e.name,
      apiVersion: e.apiVersion ?? DEFAULT_API_VERSION,
      format: e.format,
      secret: e.secret,
      organizationId: e.organizationId,
      events: [...e.events],
      enabled: e.enabled,
      usesStandardWebhookSignature: true,
    };
  }
}

@ObjectType('WebhookEndpointList', SIMPLE)
export class WebhookEndpointList extends ListResource(WebhookEndpointType) {}
