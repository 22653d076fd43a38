import { type EntityManager, LockMode } from '@mikro-orm/postgresql';
import { LicenseKey, LicenseKeyActivation, type LicenseKeyStatus } from './license-key.entity.js';

/** The row a new key is inserted with (`status` granted, no usage, no validations yet). */
export interface NewLicenseKeyRow {
  id: string;
  organizationId: string;
  customerId: string;
  benefitId: string;
  grantId: string;
  key: string;
  limitActivations: number | null;
  limitUsage: number | null;
  expiresAt: Date | null;
  createdAt: Date;
}

/** License keys and their activations. */
export class LicenseKeyRepository {
  constructor(private readonly em: EntityManager) {}

  /** Inserts the grant's key unless the grant has one already (the unique `grant_id` settles a race). */
  async insertUnlessGranted(row: NewLicenseKeyRow): Promise<void> {
    await this.em.execute(
      `insert into billing.license_keys (id, organization_id, customer_id, benefit_id, grant_id, key, status,
       limit_activations, usage, limit_usage, validations, expires_at, created_at)
     values (?, ?, ?, ?, ?, ?, 'granted', ?, 0, ?, 0, ?, ?) on conflict (grant_id) do nothing`,
      [
        row.id,
        row.organizationId,
        row.customerId,
        row.benefitId,
        row.grantId,
        row.key,
        row.limitActivations,
        row.limitUsage,
        row.expiresAt,
        row.createdAt,
      ],
    );
  }

  /** The grant's key as the database has it now (re-read, not the identity map's copy). */
  ofGrantFresh(grantId: string): Promise<LicenseKey> {
    return this.em.findOneOrFail(LicenseKey, { grantId }, { refresh: true });
  }

  /** The grant's keys in one of the `from` statuses. */
  ofGrantWithStatus(grantId: string, from: LicenseKeyStatus[]): Promise<LicenseKey[]> {
    return this.em.find(LicenseKey, { grantId, status: { $in: from } });
  }

  /** The organization's key with this text, row-locked until the transaction ends. */
  findByKeyForUpdate(organizationId: string, key: string): Promise<LicenseKey | null> {
    return this.em.findOne(LicenseKey, { organizationId, key }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  }

  /** How many live (not deleted) activations the key has. */
  countLiveActivations(licenseKeyId: string): Promise<number> {
    return this.em.count(LicenseKeyActivation, { licenseKeyId, deletedAt: null });
  }

  findLiveActivation(id: string, licenseKeyId: string): Promise<LicenseKeyActivation | null> {
    return this.em.findOne(LicenseKeyActivation, { id, licenseKeyId, deletedAt: null });
  }

  /** The benefit's current key prefix (its properties are the benefits folder's; read, never written). */
  async benefitPrefix(benefitId: string): Promise<string | null> {
    const [row] = await this.em.execute<{ prefix: string | null }[]>(
      `select properties->>'prefix' as prefix from billing.benefits where id = ?`,
      [benefitId],
    );
    return row?.prefix ?? null;
  }

  /** The grant keeps the key's `display_key` (benefit-type-handlers.ts); a rotated key updates it. */
  async syncGrantDisplayKey(grantId: string, display: string, at: Date): Promise<void> {
    await this.em.execute(
      `update billing.benefit_grants set properties = properties || jsonb_build_object('display_key', ?::text),
       modified_at = ? where id = ? and properties->>'license_key_id' is not null`,
      [display, at, grantId],
    );
  }
}
