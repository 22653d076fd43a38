import { entityJson } from '../../../kit/database/read/entity-json.js';
import { ReadModel } from '../../../kit/database/read/read-model.js';
import { CORE_READERS, PORTAL_READERS } from '../../../kit/database/tenant-scope.js';
import { embeddedCustomer } from '../customers/customer.read.js';
import { LicenseKey, LicenseKeyActivation } from './license-key.entity.js';

/** The filters of `GET /v1/license-keys/` (the organization filter narrows the tenant scope instead). */
export interface LicenseKeyReadFilters {
  benefitId?: string[];
  status?: string[];
}

/**
 * License keys as lists and gets serve them: one statement per page, each row the key with its
 * customer and its live activations (oldest first) as JSON; `LicenseKeyType.fromRow` shapes it. A
 * customer session reads its own keys only.
 */
export const licenseKeyRead = new ReadModel<LicenseKeyReadFilters>({
  name: 'license_keys',
  from: 'billing.license_keys k',
  alias: 'k',
  // A customer session reads its own keys (the Customer Portal's list and get).
  readers: [...CORE_READERS, ...PORTAL_READERS],
  tenant: { organization: 'k.organization_id', customer: 'k.customer_id' },
  select: {
    r: entityJson(LicenseKey, 'k'),
    customer: embeddedCustomer('k'),
    activations: em =>
      `(select coalesce(json_agg(${entityJson(LicenseKeyActivation, 'ka')(em)} order by ka.created_at, ka.id), '[]'::json) from billing.license_key_activations ka where ka.license_key_id = k.id and ka.deleted_at is null)`,
  },
  filters: {
    benefitId: { where: 'k.benefit_id = any(?::uuid[])' },
    status: { where: 'k.status = any(?::text[])' },
  },
  sorts: { created_at: { sql: 'k.created_at' } },
  tieBreaker: 'id',
  tieBreakerAscending: true,
});
