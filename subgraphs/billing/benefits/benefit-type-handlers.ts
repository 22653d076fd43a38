import { creditMeter, lastResetAt, resetMeter } from '../usage-billing/meter-credits.js';
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
  /** A renewal of the grant's subscription (Polar's `cycle`); answers the grant's new properties. */
  cycle?(em: EntityManager, ctx: BenefitGrantContext): Promise<Record<string, unknown>>;
}

/** A renewal of a live grant: the handler's `cycle` (meter credits), its new properties kept on the grant. */
export async function cycleGrant(
  em: EntityManager,
  handler: BenefitTypeHandler,
  ctx: { benefit: Benefit; grant: BenefitGrant; customer: Customer; at: Date },
): Promise<void> {
  if (!handler.cycle) return;
  ctx.grant.properties = await handler.cycle(em, { ...ctx, customerEmail: ctx.customer.email });
  ctx.grant.modifiedAt = ctx.at;
}

/** Nothing happens outside: the grant itself is the benefit (custom notes, feature flags). */
const recordOnly: BenefitTypeHandler = {
  async grant() {
    return {};
  },
  async revoke() {},
};

/**
 * Polar's meter credit (docs/usage-billing.md#credits): `units` credited at grant and at every cycle (after a reset
 * with what rolls over, unless the subscription's renewal reset the meter since the last credit), the last
 * credit debited on revoke.
 */
const meterCredit: BenefitTypeHandler = {
  async grant(em, { benefit, grant, at }) {
    const meterId = String(benefit.properties.meter_id);
    const units = Number(benefit.properties.units ?? 0);
    const rollover = benefit.properties.rollover === true;
    const target = { organizationId: grant.organizationId, customerId: grant.customerId, meterId };
    await creditMeter(em, { ...target, units, rollover, at });
    return { last_credited_meter_id: meterId, last_credited_units: units, last_credited_at: at.toISOString() };
  },
  async cycle(em, { benefit, grant, at }) {
    const meterId = String(benefit.properties.meter_id);
    const units = Number(benefit.properties.units ?? 0);
    const rollover = benefit.properties.rollover === true;
    const target = { organizationId: grant.organizationId, customerId: grant.customerId, meterId };
    const lastCredited = grant.properties.last_credited_at ? new Date(String(grant.properties.last_credited_at)) : null;
    const reset = await lastResetAt(em, target.organizationId, target.customerId, meterId);
    if (!reset || (lastCredited && reset < lastCredited)) await resetMeter(em, { ...target, at });
    const creditAt = new Date(at.getTime() + 2);
    await creditMeter(em, { ...target, units, rollover, at: creditAt });
    return { last_credited_meter_id: meterId, last_credited_units: units, last_credited_at: creditAt.toISOString() };
  },
  async revoke(em, { benefit, grant, at }) {
    const meterId = grant.properties.last_credited_meter_id;
    if (meterId == null) return grant.properties;
    const units = -Number(grant.properties.last_credited_units ?? benefit.properties.units ?? 0);
    await creditMeter(em, {
      organizationId: grant.organizationId,
      customerId: grant.customerId,
      meterId: String(meterId),
      units,
      rollover: benefit.properties.rollover === true,
      at,
    });
    return grant.properties;
  },
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
