import { entityJson } from '../../../kit/database/read/entity-json.js';
import type { ReadRow } from '../../../kit/database/read/execute.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS } from '../../../kit/database/tenant-scope.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';
import { WebhookEndpointType } from './webhook-endpoint.type.js';

/**
 * Live webhook endpoints (not soft-deleted) as the list and the get serve them, within the
 * organizations the tenant rule gives (docs/data-access.md). Newest first, the id breaking ties in the
 * same direction, as the list has always been ordered.
 */
export const webhookEndpointRead = new ReadModel<Record<string, never>>({
  name: 'webhook_endpoints',
  from: 'webhooks.endpoints e',
  alias: 'e',
  readers: CORE_READERS,
  tenant: { organization: 'e.organization_id' },
  visible: 'e.deleted_at is null',
  select: { r: entityJson(WebhookEndpoint, 'e') },
  filters: {},
  sorts: { created_at: { sql: 'e.created_at' } },
  tieBreaker: 'id',
});

/** The one order the list has: newest first (the id, in the same direction, breaks ties). */
export const WEBHOOK_ENDPOINT_ORDER = [{ key: 'created_at', direction: 'desc' }] as const;

/** A row of `webhookEndpointRead` as the public type. */
export function webhookEndpointFromRow(row: ReadRow): WebhookEndpointType {
  return WebhookEndpointType.fromEntity(row.r as WebhookEndpoint);
}
