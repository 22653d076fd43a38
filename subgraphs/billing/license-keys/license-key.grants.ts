import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * STUB (branch `benefits`): the seam the license keys domain (branch `license-files`) implements. A
 * grant of a `license_keys` benefit calls `issueLicenseKey`; a revoke `revokeLicenseKeys`; a re-grant
 * `restoreLicenseKeys`. When the branches merge, the license keys domain's file replaces this one.
 * Until then no key is issued and the grant records that.
 */
export interface LicenseKeyGrantInput {
  grantId: string;
  /** The benefit entity (id, organizationId, properties …). */
  benefit: { id: string; organizationId: string; properties: Record<string, unknown> };
  customerId: string;
  organizationId: string;
  at: Date;
}

export interface IssuedLicenseKey {
  id: string;
  displayKey: string;
}

export async function issueLicenseKey(
  _em: EntityManager,
  _input: LicenseKeyGrantInput,
): Promise<IssuedLicenseKey | null> {
  return null;
}

export async function revokeLicenseKeys(_em: EntityManager, _grantId: string, _at: Date): Promise<void> {}

export async function restoreLicenseKeys(_em: EntityManager, _grantId: string, _at: Date): Promise<void> {}
