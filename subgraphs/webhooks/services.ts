import { WebhookDeliveryService } from './deliveries/webhook-delivery.service.js';
import { WebhookEndpointService } from './endpoints/webhook-endpoint.service.js';

/** The webhooks use cases, built once per environment. */
export interface WebhooksServices {
  endpoints: WebhookEndpointService;
  deliveries: WebhookDeliveryService;
}

export function createWebhooksServices(deps: {
  allowPrivateTargets: boolean;
  /** Wakes an in-process delivery worker after a redelivery was queued. */
  onQueued?: () => void;
}): WebhooksServices {
  return {
    endpoints: new WebhookEndpointService(deps.allowPrivateTargets),
    deliveries: new WebhookDeliveryService(deps.onQueued),
  };
}
