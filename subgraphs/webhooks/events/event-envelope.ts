import type { ApiVersion } from '../../../kit/api-versions.js';
import { knowsEventType } from './event-versions.js';

/** What an envelope is made of: the event as ingested. */
export interface EnvelopeSource {
  type: string;
  timestamp: Date;
  /** The resource's wire body at the time of the change (the producer's, shaped for no version). */
  data: Record<string, unknown>;
}

/**
 * The JSON body an endpoint of `version` receives (`null`: an endpoint without a version). Unversioned:
 * `{"type","timestamp","data"}`, as Polar sent before versions and as the 0.4x SDKs parse it. Versioned:
 * `{"type","timestamp","api_version","data"}`, the SDK 1.0.1 envelope, `data` shaped for that version.
 * Serialised once per event and version at ingestion (event-ingest.ts); `cli listen` builds the same.
 */
export function envelopeOf(source: EnvelopeSource, version: ApiVersion | null): string {
  const timestamp = source.timestamp.toISOString();
  if (version === null) return JSON.stringify({ type: source.type, timestamp, data: source.data });
  return JSON.stringify({
    type: source.type,
    timestamp,
    api_version: version,
    data: shapeForVersion(source.type, source.data, version),
  });
}

/**
 * The one place where a version's webhook payload differs from the producer's body. None does today:
 * the version differences (docs/webhooks.md#api-versions) are in license keys (`member_id`/`member` from
 * 2026-10; validate/activate's subscription and order from 2027-01), and no event carries a license key:
 * `benefit_grant.*` and `customer.state_changed` name one only by `license_key_id` and `display_key`.
 */
function shapeForVersion(_type: string, data: Record<string, unknown>, _version: ApiVersion): Record<string, unknown> {
  return data;
}

/**
 * A stored event (its unversioned envelope) as an endpoint of `version` receives it; `null` when that
 * version does not know its type, so such an endpoint never gets it. For `cli listen --api-version`.
 */
export function envelopeSeenBy(event: { type: string; payload: string }, version: ApiVersion | null): string | null {
  if (!knowsEventType(version, event.type)) return null;
  if (version === null) return event.payload;
  const stored = JSON.parse(event.payload) as { type: string; timestamp: string; data: Record<string, unknown> };
  return envelopeOf({ type: stored.type, timestamp: new Date(stored.timestamp), data: stored.data }, version);
}
