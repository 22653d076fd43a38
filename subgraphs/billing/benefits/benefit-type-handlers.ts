import type { EntityManager } from '@mikro-orm/postgresql';
import {
  issueLicenseKey,
  type LicenseKeyBenefitProperties,
  restoreLicenseKeys,
  revokeLicenseKeys,
} from '../license-keys/license-key.grants.js';
import type { Customer } from '../customers/customer.entity.js';
import type { Benefit, BenefitKind } from './benefit.entity.js';
import type { BenefitGrant } from './benefit-grant.entity.js';
import type { BenefitIntegration, BenefitIntegrations } from './benefit-integrations.js';
import { defaultIntegrations } from './benefit-integrations.config.js';

/** What a handler gets: the benefit, the grant (its current properties), who holds it and when. */
export interface BenefitGrantContext {
  benefit: Benefit;
  grant: BenefitGrant;
  customerEmail: string | null;
  /** The holder (the integrations name Slack channels after it). */
  customer?: Customer;
  at: Date;
}

/**
 * What granting and revoking a benefit of one type does, inside the reconcile job's transaction
 * (`em`). `grant` answers the grant's new properties (Polar's `BenefitGrant…Properties`); a thrown error
 * is stored on the grant as its `error` and the grant stays as it was. `revoke` may answer the
 * properties the revoked grant keeps (an integration keeps the customer's account for a re-grant).
 */
export interface BenefitTypeHandler {
  grant(em: EntityManager, ctx: BenefitGrantContext): Promise<Record<string, unknown>>;
  revoke(em: EntityManager, ctx: BenefitGrantContext): Promise<Record<string, unknown> | void>;
}

/** Nothing happens outside: the grant itself is the benefit (custom notes, feature flags). */
const recordOnly: BenefitTypeHandler = {
  async grant() {
    return {};
  },
  async revoke() {},
};

/** Meter credits are recorded; meters do not exist yet, so nothing is credited. */
const meterCredit: BenefitTypeHandler = {
  async grant(_em, { benefit, at }) {
    return {
      last_credited_meter_id: benefit.properties.meter_id ?? null,
      last_credited_units: benefit.properties.units ?? null,
      last_credited_at: at.toISOString(),
    };
  },
  async revoke() {},
};

/** The grant names the files the customer may download; the files domain serves them. */
const downloadables: BenefitTypeHandler = {
  async grant(_em, { benefit }) {
    const archived = (benefit.properties.archived ?? {}) as Record<string, boolean>;
    const files = ((benefit.properties.files ?? []) as string[]).filter(id => !archived[id]);
    return { files };
  },
  async revoke() {},
};

/** Keys come from the license keys domain: issued on the first grant, restored on a re-grant. */
const licenseKeys: BenefitTypeHandler = {
  async grant(em, { benefit, grant, at }) {
    if (grant.properties.license_key_id) {
      await restoreLicenseKeys(em, grant.id, at);
      return grant.properties;
    }
    const key = await issueLicenseKey(em, {
      grantId: grant.id,
      benefitId: benefit.id,
      properties: benefit.properties as LicenseKeyBenefitProperties,
      customerId: grant.customerId,
      organizationId: grant.organizationId,
      subscriptionId: grant.subscriptionId,
      at,
    });
    // Polar's `user_provided_key` is the key a customer supplied (a string); keys here are always generated.
    return { license_key_id: key.licenseKeyId, display_key: key.displayKey };
  },
  async revoke(em, { grant, at }) {
    await revokeLicenseKeys(em, grant.id, at);
  },
};

function integration(adapter: BenefitIntegration): BenefitTypeHandler {
  const call = ({ benefit, grant, customer, customerEmail }: BenefitGrantContext) => ({
    benefitProperties: benefit.properties,
    grantProperties: grant.properties ?? {},
    customer: {
      id: customer?.id ?? grant.customerId,
      email: customer?.email ?? customerEmail,
      name: customer?.name ?? null,
      metadata: customer?.metadata ?? {},
    },
  });
  return {
    grant: (_em, ctx) => adapter.grant(call(ctx)),
    revoke: (_em, ctx) => adapter.revoke(call(ctx)),
  };
}

/** The handler of every benefit type. */
export function benefitTypeHandlers(
  integrations: BenefitIntegrations = defaultIntegrations(),
): Record<BenefitKind, BenefitTypeHandler> {
  return {
    custom: recordOnly,
    feature_flag: recordOnly,
    meter_credit: meterCredit,
    downloadables,
    license_keys: licenseKeys,
    discord: integration(integrations.discord),
    github_repository: integration(integrations.github_repository),
    slack_shared_channel: integration(integrations.slack_shared_channel),
  };
}
