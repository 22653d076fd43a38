import { z } from 'zod';
import {
  POLAR_DELIVERY_POLICY,
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_USER_AGENT,
  WEBHOOKS_READ,
  WEBHOOKS_WRITE,
} from '../../subgraphs/webhooks/contract.js';
import { idParams, listOf, pageQuery, toInput, toWire } from './common.js';
import type { Route } from './route.js';
import {
  webhookDeliveriesQuery,
  webhookDeliveryResponse,
  webhookEndpointCreateBody,
  webhookEndpointResponse,
  webhookEndpointUpdateBody,
  webhookRedeliverFailedBody,
  webhookRedeliveryResponse,
} from './webhooks.schemas.js';

const policy = POLAR_DELIVERY_POLICY;

/** The delivery contract, shown on every endpoint route of the API docs. */
const DELIVERY_POLICY = [
  `Events are POSTed to the endpoint's URL as Standard Webhooks: \`content-type: application/json\`,`,
  `\`user-agent: ${WEBHOOK_USER_AGENT}\`, \`webhook-id\` (the event's id, the same on every retry and redelivery:`,
  `deduplicate on it), \`webhook-timestamp\` (Unix seconds of the attempt) and \`webhook-signature\`, which lists`,
  `two \`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">\` signatures: one keyed with the UTF-8 bytes of the`,
  `secret (what Polar's SDK \`validateEvent(body, headers, secret)\` checks), one with the base64-decoded part`,
  `after \`whsec_\` (what \`new Webhook(secret)\` of the \`standardwebhooks\` package checks). The body is`,
  '`{"type", "timestamp", "data"}`, `data` the resource as the API showed it when the event happened.',
  '',
  `Any 2xx answer within ${WEBHOOK_TIMEOUT_MS / 1000} s is a success; anything else (3xx included: redirects are`,
  `not followed), a timeout or a network error is a failure, retried up to ${policy.maxAttempts} attempts in all,`,
  `after min(2 s·2^n, 20 min) with 50–100 % jitter (about 4 s, 8 s, 16 s … 17 min; the ladder spans 17–34 min).`,
  `Events to one endpoint are sent in order: an event waits while an older one to the same endpoint is`,
  `undelivered. When the ${policy.failureThreshold} most recent events of an endpoint all failed, the endpoint is`,
  `disabled (\`enabled: false\`), its queued events are skipped and its organization is notified; re-enable it`,
  `with PATCH. In production the URL must resolve to a public address (loopback, private and link-local`,
  `addresses are refused unless the operator sets WEBHOOK_ALLOW_PRIVATE_TARGETS); the sandbox allows any.`,
  `Only the \`raw\` format is supported; \`discord\` and \`slack\` are refused with 422.`,
].join('\n');

const endpointWire = (data: unknown) => toWire(data);

export const webhookRoutes: Route[] = [
  {
    operationId: 'webhooks:list_webhook_endpoints',
    method: 'get',
    path: '/v1/webhooks/endpoints',
    summary: 'List webhook endpoints',
    description: DELIVERY_POLICY,
    tag: 'webhooks',
    access: WEBHOOKS_READ,
    query: z.object({ organization_id: z.array(z.uuid()).optional(), ...pageQuery }),
    operation: 'WebhookEndpointsList',
    variables: ({ query }) => ({ organizationId: query.organization_id ?? null, page: query.page, limit: query.limit }),
    result: data => ({
      items: data.webhookEndpoints.items.map(endpointWire),
      pagination: toWire(data.webhookEndpoints.pagination),
    }),
    status: 200,
    response: listOf(webhookEndpointResponse),
  },
  {
    operationId: 'webhooks:create_webhook_endpoint',
    method: 'post',
    path: '/v1/webhooks/endpoints',
    summary: 'Create a webhook endpoint',
    description: DELIVERY_POLICY,
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    body: webhookEndpointCreateBody,
    operation: 'WebhookEndpointsCreate',
    variables: ({ body }) => ({ input: toInput(dropUndefined(body)) }),
    result: data => endpointWire(data.createWebhookEndpoint),
    status: 201,
    response: webhookEndpointResponse,
  },
  {
    operationId: 'webhooks:get_webhook_endpoint',
    method: 'get',
    path: '/v1/webhooks/endpoints/{id}',
    summary: 'Get a webhook endpoint',
    tag: 'webhooks',
    access: WEBHOOKS_READ,
    params: idParams,
    operation: 'WebhookEndpointsGet',
    variables: ({ params }) => ({ id: params.id }),
    result: data => endpointWire(data.webhookEndpoint),
    status: 200,
    response: webhookEndpointResponse,
    errors: [404],
  },
  {
    operationId: 'webhooks:update_webhook_endpoint',
    method: 'patch',
    path: '/v1/webhooks/endpoints/{id}',
    summary: 'Update a webhook endpoint',
    description: `Set \`enabled: true\` to resume an endpoint that was disabled after failures.\n\n${DELIVERY_POLICY}`,
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    params: idParams,
    body: webhookEndpointUpdateBody,
    operation: 'WebhookEndpointsUpdate',
    variables: ({ params, body }) => ({ id: params.id, input: toInput(dropUndefined(body)) }),
    result: data => endpointWire(data.updateWebhookEndpoint),
    status: 200,
    response: webhookEndpointResponse,
    errors: [404],
  },
  {
    operationId: 'webhooks:delete_webhook_endpoint',
    method: 'delete',
    path: '/v1/webhooks/endpoints/{id}',
    summary: 'Delete a webhook endpoint',
    description: 'Its queued events are skipped.',
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    params: idParams,
    operation: 'WebhookEndpointsDelete',
    variables: ({ params }) => ({ id: params.id }),
    result: () => undefined,
    status: 204,
    errors: [404],
  },
  {
    operationId: 'webhooks:reset_webhook_endpoint_secret',
    method: 'patch',
    path: '/v1/webhooks/endpoints/{id}/secret',
    summary: 'Reset a webhook endpoint secret',
    description: 'A new `whsec_` secret; attempts from now on are signed with it.',
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    params: idParams,
    operation: 'WebhookEndpointsResetSecret',
    variables: ({ params }) => ({ id: params.id }),
    result: data => endpointWire(data.resetWebhookEndpointSecret),
    status: 200,
    response: webhookEndpointResponse,
    errors: [404],
  },
  {
    operationId: 'webhooks:list_webhook_deliveries',
    method: 'get',
    path: '/v1/webhooks/deliveries',
    summary: 'List webhook deliveries',
    description:
      'One item per attempt, newest first. `webhook_event.succeeded` is null while attempts remain, ' +
      '`skipped` when the endpoint was disabled or deleted before the event was sent. `response` holds the ' +
      "first 2 KB of the receiver's answer.",
    tag: 'webhooks',
    access: WEBHOOKS_READ,
    query: webhookDeliveriesQuery,
    operation: 'WebhookDeliveriesList',
    variables: ({ query }) => ({
      endpointId: query.endpoint_id ?? null,
      startTimestamp: query.start_timestamp ?? null,
      endTimestamp: query.end_timestamp ?? null,
      succeeded: query.succeeded ?? null,
      query: query.query || null,
      httpCodeClass: query.http_code_class ?? null,
      eventType: query.event_type ?? null,
      page: query.page,
      limit: query.limit,
    }),
    result: data => toWire(data.webhookDeliveries),
    status: 200,
    response: listOf(webhookDeliveryResponse),
  },
  {
    operationId: 'webhooks:redeliver_webhook_event',
    method: 'post',
    path: '/v1/webhooks/events/{id}/redeliver',
    summary: 'Redeliver a webhook event',
    description:
      'Queues the event for its endpoint again: the same body bytes and the same `webhook-id` (a fresh ' +
      'timestamp and signature), with a new run of attempts.',
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    params: idParams,
    operation: 'WebhookEventsRedeliver',
    variables: ({ params }) => ({ id: params.id }),
    // Polar answers 202 with a JSON `null` body (and its SDK expects JSON).
    result: () => null,
    status: 202,
    response: z.null(),
    errors: [404],
  },
  {
    operationId: 'webhooks:redeliver_failed_webhook_events',
    method: 'post',
    path: '/v1/webhooks/events/redeliver',
    summary: 'Redeliver failed webhook events (not in Polar)',
    description:
      'Queues again every event that failed (or was skipped) for an enabled endpoint of the caller, narrowed ' +
      'by endpoint, event type and event time. Each is sent with its original bytes and `webhook-id`. ' +
      'Answers how many were queued.',
    tag: 'webhooks',
    access: WEBHOOKS_WRITE,
    body: webhookRedeliverFailedBody,
    bodyOptional: true,
    operation: 'WebhookEventsRedeliverFailed',
    variables: ({ body }) => ({
      endpointId: body?.endpoint_id ?? null,
      eventType: body?.event_type ?? null,
      startTimestamp: body?.start_timestamp ?? null,
      endTimestamp: body?.end_timestamp ?? null,
    }),
    result: data => data.redeliverFailedWebhookEvents,
    status: 202,
    response: webhookRedeliveryResponse,
  },
];

function dropUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
}
