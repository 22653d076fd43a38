/**
 * The REST edge's declaration of the API versions (docs/api-versions.md): the versions the `Polar-Version`
 * header may name and the default (from kit/api-versions.ts), and which response fields and routes exist
 * from or until which version. The version middleware, the per-version response shaping and the
 * per-version OpenAPI documents all read this file; nothing else spells a version.
 */

import { API_VERSIONS, type ApiVersion } from '../../../kit/api-versions.js';

// The bare list lives in kit/ so that subgraphs (a webhook endpoint's `api_version`) name the same
// versions; oldest first, a version's place in it is what `since`/`until` compare. The default is
// Polar's, the oldest (docs/api-versions.md#the-header).
export { API_VERSIONS, type ApiVersion, DEFAULT_API_VERSION, isApiVersion } from '../../../kit/api-versions.js';

/** The newest version: what the docs page shows first. */
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1];

/** `Polar-Supported-Versions`, sent with the 404 of an unknown version. */
export const SUPPORTED_VERSIONS_HEADER = API_VERSIONS.join(', ');

/** A window of versions: from `since` (included, default the oldest) until `until` (excluded, default none). */
export interface VersionWindow {
  since?: ApiVersion;
  until?: ApiVersion;
}

/**
 * Where a schema sits in a route's success body: the keys from the body's root, `[]` for every item
 * of an array. `[]` alone (an empty path) is the body itself.
 */
export type BodyPath = string[];

/**
 * Fields of one response schema that exist only in a window of versions. The route tables' response
 * schemas and wire builders describe the newest shape; an older version's answers and OpenAPI
 * document leave these fields out.
 */
export interface VersionedFields extends VersionWindow {
  /** Polar's schema name, for the docs and the reader. */
  schema: string;
  fields: string[];
  /** Each route (by operation id) that answers the schema, and where in its body. */
  at: Record<string, BodyPath[]>;
}

const ROOT: BodyPath = [];
const LIST_ITEMS: BodyPath = ['items', '[]'];
const KEY_OF_ACTIVATION: BodyPath = ['license_key'];

/** Core and portal operation ids of the same license-key operation. */
const bothApis = (name: string, paths: BodyPath[]): Record<string, BodyPath[]> => ({
  [`license_keys:${name}`]: paths,
  [`customer_portal:license_keys:${name}`]: paths,
});

export const VERSIONED_FIELDS: VersionedFields[] = [
  {
    // The seat member holding the key (null when the key was granted to the customer directly).
    schema: 'LicenseKeyRead (and LicenseKeyWithActivations, ValidatedLicenseKey, GrantedLicenseKey)',
    fields: ['member_id', 'member'],
    since: '2026-10',
    at: {
      ...bothApis('list', [LIST_ITEMS]),
      ...bothApis('get', [ROOT]),
      ...bothApis('validate', [ROOT]),
      ...bothApis('activate', [KEY_OF_ACTIVATION]),
      'license_keys:update': [ROOT],
      'license_keys:get_activation': [KEY_OF_ACTIVATION],
    },
  },
  {
    // What granted the key: its subscription, or its one-time order.
    schema: 'ValidatedLicenseKey, GrantedLicenseKey',
    fields: ['subscription_id', 'subscription', 'order_id', 'order'],
    since: '2027-01',
    at: { ...bothApis('validate', [ROOT]), ...bothApis('activate', [KEY_OF_ACTIVATION]) },
  },
];

/**
 * Routes (by operation id) that exist only in a window of versions: in another version their path
 * is an unknown route, and their version's OpenAPI document leaves them out. Every route of the table
 * exists in every version today.
 */
export const VERSIONED_ROUTES: Record<string, VersionWindow> = {};

/** Whether `version` falls in the window. */
export function inWindow(version: ApiVersion, window: VersionWindow): boolean {
  const at = API_VERSIONS.indexOf(version);
  if (window.since && at < API_VERSIONS.indexOf(window.since)) return false;
  if (window.until && at >= API_VERSIONS.indexOf(window.until)) return false;
  return true;
}

/** The fields a version leaves out of one route's body, with where they sit. */
export function fieldsOutside(
  version: ApiVersion,
  operationId: string,
  declared: readonly VersionedFields[] = VERSIONED_FIELDS,
): { path: BodyPath; fields: string[] }[] {
  return declared
    .filter(d => d.at[operationId] && !inWindow(version, d))
    .flatMap(d => d.at[operationId].map(path => ({ path, fields: d.fields })));
}

/** Whether the route (by operation id) exists in the version. */
export function routeExistsIn(
  version: ApiVersion,
  operationId: string,
  declared: Record<string, VersionWindow> = VERSIONED_ROUTES,
): boolean {
  const window = declared[operationId];
  return !window || inWindow(version, window);
}
