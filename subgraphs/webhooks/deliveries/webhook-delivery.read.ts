import { DEFAULT_API_VERSION } from '../../../kit/api-versions.js';
import { containsPattern } from '../../../kit/database/read/values.js';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import type { WebhookDeliveryType } from './webhook-delivery.type.js';

/** The delivery log's filters as the API takes them (null or an empty list: no filter). */
export interface DeliveryFilters {
  endpointIds?: string[] | null;
  start?: Date | null;
  end?: Date | null;
  succeeded?: boolean | null;
  /** Matched against the event type and the payload text. */
  query?: string | null;
  httpCodeClass?: string | null;
  eventTypes?: string[] | null;
}

/** The filters of `webhookDeliveryRead`: each present one narrows the log. */
export interface DeliveryReadFilters {
  endpointIds?: string[];
  start?: Date;
  end?: Date;
  succeeded?: boolean;
  query?: string;
  /** One of HTTP_CODE_CLASSES, checked by the service before it gets here. */
  httpCodeClass?: string;
  eventTypes?: string[];
}

/**
 * The event of a delivery (its message, which carries the event's status for this endpoint, and the
 * event's type and payload). Messages and events are reached by not-null foreign keys
 * (deliveries.message_id, messages.event_id), so every delivery has exactly one: a lookup per row of
 * the page, and an `exists` over it for the filters on the event, answer the same rows as a join.
 */
const EVENT_OF_DELIVERY =
  'from webhooks.messages m join webhooks.events ev on ev.id = m.event_id where m.id = d.message_id';

/** The bytes the message sends: its version's envelope, else the unversioned one (event-ingest.ts). */
const SENT_BODY =
  'coalesce((select b.body from webhooks.event_bodies b where b.event_id = m.event_id and b.api_version = m.api_version), ev.payload)';

/**
 * The delivery log as `GET /v1/webhooks/deliveries` serves it: one row per attempt with its event,
 * within the organizations the tenant rule gives (docs/data-access.md). Newest first, the id breaking
 * ties in the same direction, as the log has always been ordered. The attempt's own columns are
 * selected as they are (no entity maps this table), its event as one JSON object.
 */
export const webhookDeliveryRead = new ReadModel<DeliveryReadFilters>({
  name: 'webhook_deliveries',
  from: 'webhooks.deliveries d',
  alias: 'd',
  readers: CORE_READERS,
  tenant: { organization: 'd.organization_id' },
  select: {
    id: 'd.id',
    created_at: 'd.created_at',
    succeeded: 'd.succeeded',
    http_code: 'd.http_code',
    response: 'd.response',
    duration_ms: 'd.duration_ms',
    error: 'd.error',
    endpoint_id: 'd.endpoint_id',
    event: `(select json_build_object('id', m.id, 'createdAt', m.created_at, 'modifiedAt', m.modified_at, 'lastHttpCode', m.last_http_code, 'status', m.status, 'payload', ${SENT_BODY}, 'type', ev.type, 'apiVersion', m.api_version) ${EVENT_OF_DELIVERY})`,
  },
  filters: {
    endpointIds: { where: 'd.endpoint_id = any(?::uuid[])' },
    start: { where: 'd.created_at >= ?' },
    end: { where: 'd.created_at <= ?' },
    succeeded: { where: 'd.succeeded = ?' },
    httpCodeClass: {
      where: 'd.http_code >= ? and d.http_code < ?',
      values: codeClass => {
        const low = Number(codeClass[0]) * 100;
        return [low, low + 100];
      },
    },
    eventTypes: { where: `exists (select 1 ${EVENT_OF_DELIVERY} and ev.type = any(?::text[]))` },
    query: {
      where: `exists (select 1 ${EVENT_OF_DELIVERY} and (ev.type ilike ? or ev.payload ilike ?))`,
      values: text => [containsPattern(text), containsPattern(text)],
    },
  },
  sorts: { created_at: { sql: 'd.created_at' } },
  tieBreaker: 'id',
});

/** The one order the log has: newest first (the id, in the same direction, breaks ties). */
export const WEBHOOK_DELIVERY_ORDER = [{ key: 'created_at', direction: 'desc' }] as const;

/** The API's filters as the read model takes them: a null, an empty list or an empty query is no filter. */
export function deliveryReadFilters(f: DeliveryFilters): DeliveryReadFilters {
  return {
    endpointIds: f.endpointIds?.length ? f.endpointIds : undefined,
    start: f.start || undefined,
    end: f.end || undefined,
    succeeded: f.succeeded ?? undefined,
    query: f.query || undefined,
    httpCodeClass: f.httpCodeClass || undefined,
    eventTypes: f.eventTypes?.length ? f.eventTypes : undefined,
  };
}

/** The event of a row of `webhookDeliveryRead`, as `json_build_object` gives it. */
interface DeliveryEventJson {
  id: string;
  createdAt: string;
  modifiedAt: string | null;
  lastHttpCode: number | null;
  status: string;
  payload: string;
  type: string;
  /** The version the body was rendered for; null for an unversioned endpoint's. */
  apiVersion: string | null;
}

/**
 * A row of `webhookDeliveryRead` as the public type. `webhookEvent.succeeded` is null while attempts
 * remain (pending), `skipped` when the endpoint was disabled or deleted before the event was sent.
 */
export function webhookDeliveryFromRow(row: ReadRow): WebhookDeliveryType {
  const event = row.event as DeliveryEventJson;
  const finished = event.status === 'succeeded' || event.status === 'failed';
  return {
    id: row.id as string,
    createdAt: new Date(row.created_at as Date),
    modifiedAt: null,
    succeeded: row.succeeded as boolean,
    httpCode: row.http_code as number | null,
    response: row.response as string | null,
    durationMs: row.duration_ms as number,
    error: row.error as string | null,
    endpointId: row.endpoint_id as string,
    webhookEvent: {
      id: event.id,
      createdAt: new Date(event.createdAt),
      modifiedAt: event.modifiedAt ? new Date(event.modifiedAt) : null,
      lastHttpCode: event.lastHttpCode,
      succeeded: finished ? event.status === 'succeeded' : null,
      skipped: event.status === 'skipped',
      payload: event.payload,
      type: event.type,
      // An unversioned endpoint's body is the default version's, as its endpoint answers (docs/webhooks.md#api-versions).
      apiVersion: event.apiVersion ?? DEFAULT_API_VERSION,
      isArchived: false,
    },
  };
}
