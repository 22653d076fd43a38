import type { RequestContext } from '../../kit/request-context.js';
import type { WebhooksServices } from './services.js';

/** What every webhooks resolver receives: the request and the service registry. */
export interface WebhooksContext extends RequestContext {
  services: WebhooksServices;
}
