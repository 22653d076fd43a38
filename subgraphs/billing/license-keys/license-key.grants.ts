import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { addMonthsClamped } from '../time/calendar.js';
import { displayKey, LicenseKeyStatus } from './license-key.entity.js';
import { LicenseKeyRepository } from './license-key.repository.js';

/**
 * The seam between benefit grants (benefits/) and license keys: the `license_keys` benefit's strategy
 * calls these inside the transaction that grants or revokes, with the organization's time (`at`).
 */

/** The `license_keys` benefit's properties (docs/polar/resources.md#benefit), as stored on the benefit. */
export interface LicenseKeyBenefitProperties {
  prefix?: string | null;
  expires?: { ttl: number; timeframe: 'year' | 'month' | 'day' } | null;
  activations?: { limit: number; enable_customer_admin?: boolean } | null;
  limit_usage?: number | null;
}

export interface IssueLicenseKey {
  grantId: string;
  benefitId: string;
  properties: LicenseKeyBenefitProperties;
  customerId: string;
  organizationId: string;
  at: Date;
  /**
   * A grant of a subscription: Polar gives such keys no expiry (they live and die with the grant);
   * the benefit's `expires` applies to one-time purchases only.
   */
  subscriptionId?: string | null;
}

/** What the grant keeps in its properties (`license_key_id`, `display_key`). */
export interface IssuedLicenseKey {
  licenseKeyId: string;
  displayKey: string;
  key: string;
  status: LicenseKeyStatus;
}

/** `PREFIX-UUID` in upper case, as Polar generates keys. */
export function generateLicenseKey(prefix?: string | null): string {
  const key = randomUUID().toUpperCase();
  const trimmed = prefix?.trim();
  return trimmed ? `${trimmed.toUpperCase()}-${key}` : key;
}

/** `at` + ttl × timeframe (relativedelta's month clamping); null without a complete `expires`. */
export function licenseKeyExpiry(expires: LicenseKeyBenefitProperties['expires'], at: Date): Date | null {
  if (!expires?.ttl || !expires.timeframe) return null;
  if (expires.timeframe === 'day') return new Date(at.getTime() + expires.ttl * 86_400_000);
  return addMonthsClamped(at, expires.timeframe === 'year' ? expires.ttl * 12 : expires.ttl);
}

/**
 * The key of a grant: created on the first call, found again on every later one (the same key, same
 * id), so a retried or re-run grant job never issues a second key. A later call refreshes the limits
 * from the benefit's current properties (Polar's `customer_update_grant`); the expiry set at issue stays.
 * Concurrent first calls are settled by the unique `grant_id`: one insert wins, both return its key.
 */
export async function issueLicenseKey(em: EntityManager, issue: IssueLicenseKey): Promise<IssuedLicenseKey> {
  const limitActivations = issue.properties.activations?.limit ?? null;
  const limitUsage = issue.properties.limit_usage ?? null;
  const expiresAt = issue.subscriptionId ? null : licenseKeyExpiry(issue.properties.expires, issue.at);
  const keys = new LicenseKeyRepository(em);
  await keys.insertUnlessGranted({
    id: randomUUID(),
    organizationId: issue.organizationId,
    customerId: issue.customerId,
    benefitId: issue.benefitId,
    grantId: issue.grantId,
    key: generateLicenseKey(issue.properties.prefix),
    limitActivations,
    limitUsage,
    expiresAt,
    createdAt: issue.at,
  });
  const key = await keys.ofGrantFresh(issue.grantId);
  if (key.limitActivations !== limitActivations || key.limitUsage !== limitUsage) {
    key.limitActivations = limitActivations;
    key.limitUsage = limitUsage;
    key.modifiedAt = issue.at;
  }
  return { licenseKeyId: key.id, displayKey: displayKey(key.key), key: key.key, status: key.status };
}

/** The grant's key stops validating and activating (status `revoked`). Returns how many keys changed. */
export async function revokeLicenseKeys(em: EntityManager, grantId: string, at: Date): Promise<number> {
  return setStatus(em, grantId, LicenseKeyStatus.REVOKED, [LicenseKeyStatus.GRANTED, LicenseKeyStatus.DISABLED], at);
}

/**
 * A re-granted grant's revoked key works again (status `granted`): same key, same activations. A key
 * the merchant disabled stays disabled, as in Polar.
 */
export async function restoreLicenseKeys(em: EntityManager, grantId: string, at: Date): Promise<number> {
  return setStatus(em, grantId, LicenseKeyStatus.GRANTED, [LicenseKeyStatus.REVOKED], at);
}

async function setStatus(
  em: EntityManager,
  grantId: string,
  to: LicenseKeyStatus,
  from: LicenseKeyStatus[],
  at: Date,
): Promise<number> {
  const keys = await new LicenseKeyRepository(em).ofGrantWithStatus(grantId, from);
  for (const key of keys) {
    key.status = to;
    key.modifiedAt = at;
  }
  return keys.length;
}
