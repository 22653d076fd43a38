import { z } from 'zod';
import { API_VERSIONS } from '../../../kit/api-versions.js';
import { HTTP_CODE_CLASSES, WEBHOOK_EVENT_TYPES, WEBHOOK_FORMATS } from '../../../subgraphs/webhooks/contract.js';
import { pageQuery } from './common.js';
import { queryBoolean, queryDateTime } from './subscriptions.schemas.js';

/** Wire shapes of webhook endpoints, deliveries and events (docs/polar/resources.md#webhook-endpoints). */
const dateTime = z.iso.datetime({ offset: true });
const eventType = z.enum(WEBHOOK_EVENT_TYPES);
// `discord` and `slack` are Polar's formats and pass the edge; the service refuses them with a clear 422.
const format = z.enum(WEBHOOK_FORMATS);
const url = z.string().min(1).max(2083);
const apiVersion = z.enum(API_VERSIONS).meta({
  description:
    "The API version of the event payloads (envelope `api_version`, `data` shaped for it) and the event types it may receive. Without one: the unversioned envelope and only the types Polar's 0.4x SDKs know (docs/webhooks.md#api-versions).",
});

export const webhookEndpointCreateBody = z.strictObject({
  url,
  name: z.string().nullish(),
  api_version: apiVersion.optional(),
  format,
  events: z.array(eventType),
  organization_id: z.uuid().nullish(),
  secret: z.string().min(32).nullish().meta({ deprecated: true }),
});

export const webhookEndpointUpdateBody = z.strictObject({
  url: url.nullish(),
  name: z.string().nullish(),
  api_version: apiVersion.nullish(),
  format: format.nullish(),
  events: z.array(eventType).nullish(),
  enabled: z.boolean().nullish(),
  secret: z.string().min(32).nullish().meta({ deprecated: true }),
});

export const webhookEndpointResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  url: z.string(),
  name: z.string().nullable(),
  api_version: z.enum(API_VERSIONS),
  format,
  secret: z.string(),
  organization_id: z.uuid(),
  events: z.array(eventType),
  enabled: z.boolean(),
  uses_standard_webhook_signature: z.boolean(),
});

export const webhookEventResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  last_http_code: z.number().int().nullable(),
  succeeded: z.boolean().nullable(),
  skipped: z.boolean(),
  payload: z.string().nullable(),
  type: eventType,
  api_version: z.string(),
  is_archived: z.boolean(),
});

export const webhookDeliveryResponse = z.object({
  created_at: dateTime,
  modified_at: dateTime.nullable(),
  id: z.uuid(),
  succeeded: z.boolean(),
  http_code: z.number().int().nullable(),
  response: z.string().nullable(),
  webhook_event: webhookEventResponse,
});

export const webhookDeliveriesQuery = z.object({
  endpoint_id: z.array(z.uuid()).optional(),
  start_timestamp: queryDateTime.optional(),
  end_timestamp: queryDateTime.optional(),
  succeeded: queryBoolean.optional(),
  query: z.string().optional(),
  http_code_class: z.enum(HTTP_CODE_CLASSES).optional(),
  event_type: z.array(eventType).optional(),
  ...pageQuery,
});

/** Beyond Polar: which failed events to send again (every key optional; none = every failed event). */
export const webhookRedeliverFailedBody = z.strictObject({
  endpoint_id: z.array(z.uuid()).nullish(),
  event_type: z.array(eventType).nullish(),
  start_timestamp: dateTime.nullish(),
  end_timestamp: dateTime.nullish(),
});

export const webhookRedeliveryResponse = z.object({ count: z.number().int() });
