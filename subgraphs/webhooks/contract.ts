/**
 * The webhooks subgraph's published contract: everything another part of the code base (the REST
 * adapter, the gateway, another subgraph) may import from webhooks, and nothing else.
 * Kept free of I/O: importing it loads no database or GraphQL schema.
 */

// Who may call each operation: the route table checks the very objects the resolvers check.
export { WEBHOOKS_READ, WEBHOOKS_WRITE } from './endpoints/webhook-endpoint.access.js';

// Enums that travel on the wire.
export { HTTP_CODE_CLASSES, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from './events/event-types.js';

// How producers (billing's outbox relay) hand events over: in-process or over signed JSON RPC.
export { type SourceEvent, WEBHOOK_INGEST_RPC, type WebhookIngest } from './events/webhook-ingest.contract.js';

// The delivery policy, for the API docs.
export { POLAR_DELIVERY_POLICY } from './worker/delivery-policy.js';
export { WEBHOOK_TIMEOUT_MS, WEBHOOK_USER_AGENT } from './worker/delivery-sender.js';
