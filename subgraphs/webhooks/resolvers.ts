import type { NonEmptyArray } from 'type-graphql';
import { WebhookDeliveryResolver } from './deliveries/webhook-delivery.resolver.js';
import { WebhookEndpointResolver } from './endpoints/webhook-endpoint.resolver.js';

/** Every resolver class of the webhooks subgraph. */
export const webhooksResolvers: Function[] = [WebhookEndpointResolver, WebhookDeliveryResolver];

export const resolversForSchema = () => webhooksResolvers as unknown as NonEmptyArray<Function>;
