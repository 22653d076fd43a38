import { randomUUID } from 'node:crypto';
import {
  issueLicenseKey,
  type LicenseKeyBenefitProperties,
  restoreLicenseKeys,
  revokeLicenseKeys,
} from '../../../subgraphs/billing/license-keys/license-key.grants.js';
import { call, type RunningEnvironment, type Tenant } from '../../support/stack.js';

/**
 * Keys as the `license_keys` benefit issues them: the grant seam (license-key.grants.ts) called in a
 * transaction of the environment's billing database, as the benefits' grant jobs do. The benefit and
 * grant ids are made up here (no benefit rows are needed by license keys).
 */
export interface IssuedKey {
  id: string;
  key: string;
  grantId: string;
  benefitId: string;
  customerId: string;
}

export async function createCustomer(env: RunningEnvironment, tenant: Tenant): Promise<string> {
  const res = await call(env.baseUrl, 'POST', '/v1/customers/', {
    token: tenant.oat,
    body: { email: `buyer-${randomUUID().slice(0, 8)}@example.com`, name: 'Buyer' },
  });
  if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
  return res.body.id;
}

export async function issueKey(
  env: RunningEnvironment,
  tenant: Tenant,
  properties: LicenseKeyBenefitProperties,
  options: { customerId?: string; grantId?: string; benefitId?: string; at?: Date } = {},
): Promise<IssuedKey> {
  const customerId = options.customerId ?? (await createCustomer(env, tenant));
  const grantId = options.grantId ?? randomUUID();
  const benefitId = options.benefitId ?? randomUUID();
  const issued = await env.environment.billing.orm.em.fork().transactional(em =>
    issueLicenseKey(em, {
      grantId,
      benefitId,
      properties,
      customerId,
      organizationId: tenant.organizationId,
      at: options.at ?? new Date(),
    }),
  );
  return { id: issued.licenseKeyId, key: issued.key, grantId, benefitId, customerId };
}

export async function revokeGrant(env: RunningEnvironment, grantId: string): Promise<number> {
  return env.environment.billing.orm.em.fork().transactional(em => revokeLicenseKeys(em, grantId, new Date()));
}

export async function restoreGrant(env: RunningEnvironment, grantId: string): Promise<number> {
  return env.environment.billing.orm.em.fork().transactional(em => restoreLicenseKeys(em, grantId, new Date()));
}
