import { API_VERSIONS, type ApiVersion, isAtLeast } from '../../../kit/api-versions.js';
import { WEBHOOK_EVENT_TYPES } from './event-types.js';

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The API version an event type first appears in; a type not listed here is known to the unversioned
 * contract as well, the one the 0.4x SDKs (0.48.1's `validateEvent`) parse, which throws on any other
 * type. `subgraphs/webhooks/__tests__/event-versions.test.ts` derives both sets from the SDKs' own
 * files (0.48.1's event switch, 1.0.1's per-version `knownEventTypes`) and fails when this table
 * drifts from them. A type a later version adds gets that version here (docs/webhooks.md#api-versions).
 */
const FIRST_VERSION: Partial<Record<WebhookEventType, ApiVersion>> = {
  'subscription.cycled': '2026-04',
  'subscription.paused': '2026-04',
  'subscription.resumed': '2026-04',
  'discount.created': '2026-04',
  'discount.updated': '2026-04',
  'discount.deleted': '2026-04',
};

/** The event types of an endpoint created without `api_version` (the 0.4x way). */
export const UNVERSIONED_EVENT_TYPES: readonly WebhookEventType[] = WEBHOOK_EVENT_TYPES.filter(
  type => FIRST_VERSION[type] === undefined,
);

/** Which event types each API version knows. */
export const EVENT_TYPES_BY_VERSION: ReadonlyMap<ApiVersion, readonly WebhookEventType[]> = new Map(
  API_VERSIONS.map(version => [
    version,
    WEBHOOK_EVENT_TYPES.filter(type => {
      const since = FIRST_VERSION[type];
      return since === undefined || isAtLeast(version, since);
    }),
  ]),
);

/** The event types an endpoint of `version` (`null`: unversioned) may subscribe to and receive. */
export function eventTypesOf(version: ApiVersion | null): readonly WebhookEventType[] {
  return version === null ? UNVERSIONED_EVENT_TYPES : (EVENT_TYPES_BY_VERSION.get(version) ?? []);
}

export function knowsEventType(version: ApiVersion | null, type: string): boolean {
  return (eventTypesOf(version) as readonly string[]).includes(type);
}

/** Who receives `type`: whether unversioned endpoints do, and the versions that know it (ingest's filter). */
export function receiversOf(type: string): { unversioned: boolean; versions: ApiVersion[] } {
  return {
    unversioned: knowsEventType(null, type),
    versions: API_VERSIONS.filter(version => knowsEventType(version, type)),
  };
}
