/**
 * The dated API versions this service speaks (`Polar-Version`, see docs/webhooks.md#api-versions), oldest
 * first. The bare list only, free of I/O, so the REST edge and every subgraph (a webhook endpoint's
 * `api_version`) name the same versions. What differs per version is declared by each side.
 */
export const API_VERSIONS = ['2026-04', '2026-10', '2027-01'] as const;

export type ApiVersion = (typeof API_VERSIONS)[number];

/** The version of a request that names none (Polar's current version). */
export const DEFAULT_API_VERSION: ApiVersion = '2026-04';

export function isApiVersion(value: unknown): value is ApiVersion {
  return typeof value === 'string' && (API_VERSIONS as readonly string[]).includes(value);
}

/** Whether `version` is `since` or later (versions are `YYYY-MM`, so they sort as text). */
export function isAtLeast(version: ApiVersion, since: ApiVersion): boolean {
  return version >= since;
}
